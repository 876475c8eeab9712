import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { loadConfig } from '../config.js';
import type { AppDeps } from '../context.js';
import { hashMailToken, newMailToken, tokenService } from './token.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('session tokens', () => {
  it('generates the HS256 secret once and keeps it in settings, so every process agrees', async () => {
    const { token } = await tokenService(t.deps).issue({ userId: '7', tokenVersion: 3, rememberDays: 7 });
    const rows = await t.tdb.db.selectFrom('settings').select(['key', 'value']).execute();
    const secret = rows.find((r) => r.key === 'auth.jwt_secret')?.value as string;
    expect(secret.length).toBeGreaterThanOrEqual(64);
    // Another process: new deps over the same database.
    const other: AppDeps = { ...t.deps };
    const claims = await tokenService(other).verify(token);
    expect(claims).toMatchObject({ userId: '7', tokenVersion: 3, rememberDays: 7 });
    expect(claims.expiresAt.getTime() - claims.issuedAt.getTime()).toBe(7 * 86_400_000);
    const [header] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('uses JWT_SECRET when set, and then refuses tokens of the generated secret', async () => {
    const generated = await tokenService(t.deps).issue({ userId: '1', tokenVersion: 0, rememberDays: 30 });
    const configured: AppDeps = { ...t.deps, config: { ...t.deps.config, JWT_SECRET: 's'.repeat(40) } };
    await expect(tokenService(configured).verify(generated.token)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    const own = await tokenService(configured).issue({ userId: '1', tokenVersion: 0, rememberDays: 30 });
    await expect(tokenService(configured).verify(own.token)).resolves.toMatchObject({ userId: '1' });
  });

  it('refuses a JWT_SECRET shorter than 32 characters at start', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET: must be at least 32 characters/);
  });

  it('keeps a refresh in the same session', async () => {
    const first = await tokenService(t.deps).issue({ userId: '9', tokenVersion: 0, rememberDays: 90 });
    const next = await tokenService(t.deps).issue({
      userId: '9',
      tokenVersion: 0,
      rememberDays: 90,
      sessionId: first.claims.sessionId,
    });
    expect(next.token).not.toBe(first.token);
    expect((await tokenService(t.deps).verify(next.token)).sessionId).toBe(first.claims.sessionId);
  });
});

describe('mail tokens', () => {
  it('are 256 random bits; only their SHA-256 is stored', () => {
    const a = newMailToken();
    const b = newMailToken();
    expect(a.token).not.toBe(b.token);
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashMailToken(a.token)).toBe(a.hash);
    expect(a.hash).not.toContain(a.token);
  });
});
