import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { ERROR_CODE_LIST } from '../errors.codes.js';
import { CLIENT_TYPES_FILE, OPENAPI_FILE, renderGeneratedFiles } from './generate.js';

describe('OpenAPI document and web client types', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('committed api/openapi.json and web/src/shared/api/schema.generated.ts match generation (run npm run generate)', async () => {
    const fresh = await renderGeneratedFiles();
    expect(await readFile(OPENAPI_FILE, 'utf8')).toBe(fresh.openapi);
    expect(await readFile(CLIENT_TYPES_FILE, 'utf8')).toBe(fresh.clientTypes);
  });

  it('serves the committed document at /api/openapi.json', async () => {
    const res = await t.app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(await readFile(OPENAPI_FILE, 'utf8')));
  });

  it('documents every accounts endpoint, the error codes and both ways to send a session', async () => {
    const doc = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        'POST /auth-jwt/login',
        'POST /auth-jwt/refreshToken',
        'POST /auth-jwt/register',
        'PATCH /users/resetPassword-token',
        'POST /auth-jwt/password-forgot',
        'POST /auth-jwt/recuperation',
        'PATCH /users/registration-token',
        'POST /auth-jwt/registration-mail',
        'POST /auth-jwt/activate-from-mail',
        'GET /users/current',
        'PATCH /users/current',
        'GET /users/register',
        'POST /users',
        'GET /users/from-reset-password-token',
        'PATCH /users/choosePasswordAfterReset',
        'GET /users/totalCredits',
        'GET /users',
        'GET /users/{id}',
        'PATCH /users/{id}/role',
        'PATCH /users/{id}/enabled',
      ]),
    );
    expect(doc.components.schemas.ErrorCode.enum).toEqual(ERROR_CODE_LIST);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['bearerAuth', 'cookieAuth']);
    expect(doc.servers).toEqual([{ url: '/api' }]);
  });
});
