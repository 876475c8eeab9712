import { describe, expect, it } from 'vitest';
import { createSignedUrl, signKey, verifySignature, verifySignedUrl } from './signed-url.js';

const secret = 'test-secret-of-enough-length';
const base = 'https://nuage.example/files';
const key = 'projects/p1/assets/a1/cloud.laz';
const now = Date.UTC(2026, 0, 1);

describe('signed URLs', () => {
  it('signs and verifies until expiry', () => {
    const url = createSignedUrl(base, key, { secret, expiresIn: 600, now });
    expect(url).toMatch(
      /^https:\/\/nuage\.example\/files\/projects\/p1\/assets\/a1\/cloud\.laz\?expires=\d+&signature=[\w-]{43}$/,
    );
    expect(verifySignedUrl(base, url, secret, now + 599_000)).toEqual({ ok: true });
    expect(verifySignedUrl(base, url, secret, now + 601_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses tampered keys, expiries, signatures and secrets', () => {
    const url = createSignedUrl(base, key, { secret, expiresIn: 600, now });
    expect(verifySignedUrl(base, url.replace('a1/cloud', 'a2/cloud'), secret, now)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const exp = Number(new URL(url).searchParams.get('expires'));
    expect(verifySignedUrl(base, url.replace(`expires=${exp}`, `expires=${exp + 1000}`), secret, now)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const sig = new URL(url).searchParams.get('signature')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(verifySignedUrl(base, url.replace(sig, flipped), secret, now)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(verifySignedUrl(base, url, 'other-secret', now)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(verifySignature(key, String(exp), sig.slice(0, 10), secret, now)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(verifySignature(key, 'soon', sig, secret, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(key, undefined, sig, secret, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature('../x', String(exp), sig, secret, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignedUrl(base, 'https://evil.example/files/x?expires=1&signature=a', secret, now).ok).toBe(false);
  });

  it('binds key and expiry unambiguously', () => {
    expect(signKey('projects/a', 12, secret)).not.toBe(signKey('projects/a1', 2, secret));
  });
});
