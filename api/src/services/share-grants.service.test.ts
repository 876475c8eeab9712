import { describe, expect, it } from 'vitest';
import {
  grantForViewer,
  isShareGrantId,
  projectOfGrant,
  ShareGrantCache,
  shareGrantId,
} from './share-grants.service.js';

const TOKEN = 'a-share-token-of-forty-three-characters-xyz';

/** A cache over a fake projects table that counts its queries, with a clock the test moves. */
function fixture(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const tokens = new Map<string, string | null>([['7', TOKEN]]);
  let queries = 0;
  let clock = 1_000_000;
  let gate: Promise<void> | null = null;
  const cache = new ShareGrantCache(
    async (projectId) => {
      queries++;
      const answer = tokens.get(projectId) ?? null;
      if (gate) await gate;
      return answer;
    },
    { ...options, now: () => clock },
  );
  return {
    cache,
    tokens,
    queries: () => queries,
    advance: (ms: number) => {
      clock += ms;
    },
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = null;
        release();
      };
    },
  };
}

describe('share grant ids', () => {
  it('name the project and the share without the token, and change with the token', () => {
    const grant = shareGrantId('7', TOKEN);
    expect(grant).toMatch(/^7\.[A-Za-z0-9_-]{22}$/);
    expect(grant).not.toContain(TOKEN.slice(0, 8));
    expect(isShareGrantId(grant)).toBe(true);
    expect(projectOfGrant(grant)).toBe('7');
    expect(shareGrantId('7', `${TOKEN}2`)).not.toBe(grant);
    expect(shareGrantId('8', TOKEN)).not.toBe(grant);
    for (const bad of ['7', '7.', 'x.abcdefghijklmnopqrstuv', `7.${'a'.repeat(21)}`, `7.${'a'.repeat(21)}/`]) {
      expect(isShareGrantId(bad), bad).toBe(false);
    }
  });

  it('are given to share-token viewers only', () => {
    expect(grantForViewer({ kind: 'share', token: TOKEN }, '7')).toBe(shareGrantId('7', TOKEN));
    expect(grantForViewer({ kind: 'user', id: '1', admin: false }, '7')).toBeUndefined();
    expect(grantForViewer({ kind: 'user', id: '1', admin: true }, '7')).toBeUndefined();
  });
});

describe('ShareGrantCache', () => {
  it('asks the database once per grant within the TTL, and again once it is older', async () => {
    const f = fixture({ ttlMs: 60_000 });
    const grant = shareGrantId('7', TOKEN);
    for (let i = 0; i < 50; i++) expect(await f.cache.isValid(grant)).toBe(true);
    expect(f.queries()).toBe(1);
    // Revoked by another process: still trusted until the entry is 60 s old.
    f.tokens.set('7', null);
    f.advance(59_999);
    expect(await f.cache.isValid(grant)).toBe(true);
    expect(f.queries()).toBe(1);
    f.advance(1);
    expect(await f.cache.isValid(grant)).toBe(false);
    expect(f.queries()).toBe(2);
    // A refused grant is remembered for the TTL too.
    expect(await f.cache.isValid(grant)).toBe(false);
    expect(f.queries()).toBe(2);
  });

  it('shares one query between concurrent checks of a grant', async () => {
    const f = fixture();
    const release = f.hold();
    const grant = shareGrantId('7', TOKEN);
    const checks = Array.from({ length: 20 }, () => f.cache.isValid(grant));
    release();
    expect(await Promise.all(checks)).toEqual(Array(20).fill(true));
    expect(f.queries()).toBe(1);
  });

  it('refuses a grant of another token, of another project, of a project without a share, or malformed', async () => {
    const f = fixture();
    f.tokens.set('8', null);
    expect(await f.cache.isValid(shareGrantId('7', 'another-token-another-token-another-token'))).toBe(false);
    expect(await f.cache.isValid(shareGrantId('8', TOKEN))).toBe(false);
    expect(await f.cache.isValid(shareGrantId('9', TOKEN))).toBe(false);
    const queries = f.queries();
    expect(await f.cache.isValid('7.not-a-grant')).toBe(false);
    expect(await f.cache.isValid(TOKEN)).toBe(false);
    expect(f.queries()).toBe(queries);
  });

  it('forgets a project’s grants on eviction, and a check begun before it does not fill the cache', async () => {
    const f = fixture();
    const grant = shareGrantId('7', TOKEN);
    const other = shareGrantId('17', TOKEN);
    f.tokens.set('17', TOKEN);
    expect(await f.cache.isValid(grant)).toBe(true);
    expect(await f.cache.isValid(other)).toBe(true);
    f.tokens.set('7', null);
    f.cache.evictProject('7');
    expect(await f.cache.isValid(grant)).toBe(false);
    // Project 17 (same prefix digits) keeps its entry.
    const queries = f.queries();
    expect(await f.cache.isValid(other)).toBe(true);
    expect(f.queries()).toBe(queries);

    // A check that read the token before the revocation answers its caller but is not kept.
    f.tokens.set('7', TOKEN);
    f.cache.evictProject('7');
    const release = f.hold();
    const inFlight = f.cache.isValid(grant);
    await Promise.resolve();
    f.tokens.set('7', null);
    f.cache.evictProject('7');
    release();
    expect(await inFlight).toBe(true);
    expect(await f.cache.isValid(grant)).toBe(false);
  });

  it('keeps at most maxEntries, dropping the oldest check', async () => {
    const f = fixture({ maxEntries: 3 });
    for (const id of ['1', '2', '3', '4']) f.tokens.set(id, TOKEN);
    for (const id of ['1', '2', '3', '4']) await f.cache.isValid(shareGrantId(id, TOKEN));
    expect(f.cache.size).toBe(3);
    const queries = f.queries();
    await f.cache.isValid(shareGrantId('4', TOKEN));
    expect(f.queries()).toBe(queries);
    await f.cache.isValid(shareGrantId('1', TOKEN));
    expect(f.queries()).toBe(queries + 1);
  });
});
