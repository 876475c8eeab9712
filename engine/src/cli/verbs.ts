import { convertVerb } from './convert.verb.js';
import { infoVerb } from './info.verb.js';
import { tileVerb } from './tile.verb.js';
import type { CliVerb } from './verb.js';

/** Every `nuage` verb. A new verb is one module and one line here. */
export const verbs: CliVerb[] = [infoVerb, convertVerb, tileVerb];
