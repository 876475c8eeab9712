import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODE_LIST, ERROR_CODES } from './errors.codes.js';

// The accounts area's sources: every code they can answer with must be listed for translation.
const ACCOUNT_SOURCES = [
  'routes/auth.routes.ts',
  'routes/users.routes.ts',
  'routes/admin-users.routes.ts',
  'routes/account.schemas.ts',
  'services/auth.service.ts',
  'services/users.service.ts',
  'services/token.service.ts',
  'services/rate-limit.service.ts',
  'middleware/auth.ts',
  'openapi/route-group.ts',
  'app.ts',
  'services/health.service.ts',
];

const USE = /(?:AppError\(\d+, '|(?:badRequest|unauthorized|conflict|forbidden|notFound)\('|code: ')([A-Z][A-Z_]+)'/g;

describe('error codes', () => {
  it('lists every code the accounts routes, services and middleware can answer with', async () => {
    const used = new Set<string>();
    for (const file of ACCOUNT_SOURCES) {
      const text = await readFile(path.join(import.meta.dirname, file), 'utf8');
      for (const m of text.matchAll(USE)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((c) => !(c in ERROR_CODES))).toEqual([]);
  });

  it('gives every code an HTTP status and a description', () => {
    for (const code of ERROR_CODE_LIST) {
      const e = ERROR_CODES[code];
      expect(e.status, code).toBeGreaterThanOrEqual(400);
      expect(e.description.length, code).toBeGreaterThan(10);
    }
    for (const code of [
      'INVALID_CREDENTIALS',
      'NO_ACCOUNT',
      'ACCOUNT_EXISTS',
      'DISPOSABLE_EMAIL',
      'INVALID_RESET_LINK',
    ]) {
      expect(ERROR_CODE_LIST).toContain(code);
    }
    for (const code of ['RESET_MAIL_FAILED', 'FORM_INVALID', 'ACCOUNT_INACTIVE', 'TOO_MANY_ATTEMPTS']) {
      expect(ERROR_CODE_LIST).toContain(code);
    }
  });
});
