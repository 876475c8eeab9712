import { clipVerb } from './clip.verb.js';
import { convertVerb } from './convert.verb.js';
import { editClassesVerb } from './edit-classes.verb.js';
import { exportVerb } from './export.verb.js';
import { infoVerb } from './info.verb.js';
import { processVerb, productVerbs } from './product.verb.js';
import { tileVerb } from './tile.verb.js';
import type { CliVerb } from './verb.js';

/** Every `nuage` verb: the file verbs, then one per product of the registry, then `process`. */
export const verbs: CliVerb[] = [
  infoVerb,
  convertVerb,
  tileVerb,
  ...productVerbs,
  processVerb,
  exportVerb,
  clipVerb,
  editClassesVerb,
];
