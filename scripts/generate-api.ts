/**
 * `npm run generate`: writes api/openapi.json (the document the API serves at
 * /api/openapi.json) and web/src/shared/api/schema.generated.ts (its types).
 * `npm run generate -- --check` exits 1 when either file is out of date.
 */
import { generateApiFiles } from '../api/src/openapi/generate.js';

const check = process.argv.includes('--check');
const changed = await generateApiFiles({ check });
if (check && changed.length > 0) {
  console.error(`out of date (run npm run generate): ${changed.join(', ')}`);
  process.exit(1);
}
console.log(
  changed.length ? `${check ? 'would write' : 'wrote'} ${changed.join(', ')}` : 'generated files are up to date',
);
