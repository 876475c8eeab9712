import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../errors.codes.js';

// The projects area's sources: every code they can answer with must be listed for translation.
const SOURCES = [
  'routes/projects.routes.ts',
  'routes/share.routes.ts',
  'routes/assets.routes.ts',
  'routes/jobs.routes.ts',
  'routes/admin-jobs.routes.ts',
  'routes/global-parameters.routes.ts',
  'routes/tiles.routes.ts',
  'routes/ogc-features.routes.ts',
  'services/access.service.ts',
  'services/assets.service.ts',
  'services/global-parameters.service.ts',
  'services/jobs.service.ts',
  'services/limits.service.ts',
  'services/projects.service.ts',
];

const USE = /(?:AppError\(\s*\d+,\s*'|fail\(c, \d+, ')([A-Z][A-Z_]+)'/g;

describe('projects error codes', () => {
  it('lists every code the projects routes and services can answer with', async () => {
    const used = new Set<string>();
    for (const file of SOURCES) {
      const text = await readFile(path.join(import.meta.dirname, '..', file), 'utf8');
      for (const m of text.matchAll(USE)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((c) => !(c in ERROR_CODES))).toEqual([]);
  });
});
