import { classifyVerb } from './classify.verb.js';
import { contoursVerb } from './contours.verb.js';
import { convertVerb } from './convert.verb.js';
import { dtmVerb } from './dtm.verb.js';
import { gridVerb } from './grid.verb.js';
import { hillshadeVerb } from './hillshade.verb.js';
import { infoVerb } from './info.verb.js';
import { processVerb } from './process.verb.js';
import { slopeVerb } from './slope.verb.js';
import { tileVerb } from './tile.verb.js';
import type { CliVerb } from './verb.js';

/** Every `nuage` verb. A new verb is one module and one line here. */
export const verbs: CliVerb[] = [
  infoVerb,
  convertVerb,
  tileVerb,
  classifyVerb,
  dtmVerb,
  hillshadeVerb,
  slopeVerb,
  contoursVerb,
  gridVerb,
  processVerb,
];
