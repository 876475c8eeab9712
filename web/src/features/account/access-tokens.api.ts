import { api } from '../../shared/api/api.js';
import { apiBaseUrl } from '../../shared/api/api-config.js';
import type { components } from '../../shared/api/schema.generated.js';

/** A personal access token as listed (never the token itself). */
export type AccessToken = components['schemas']['AccessToken'];
/** A token just made: the only answer that holds the token. */
export type CreatedAccessToken = components['schemas']['CreatedAccessToken'];

/** GET /users/current/access-tokens: the user's tokens, newest first. */
export async function listAccessTokens(): Promise<AccessToken[]> {
  return (await api.get<{ results: AccessToken[] }>('/users/current/access-tokens')).results;
}

/** POST /users/current/access-tokens: makes a read-only token for GIS tools (shown once). */
export function createAccessToken(body: { name: string; expiresInDays: number | null }): Promise<CreatedAccessToken> {
  return api.post<CreatedAccessToken>('/users/current/access-tokens', { body });
}

/** DELETE /users/current/access-tokens/{id}: the token stops working at once. */
export function revokeAccessToken(id: string): Promise<void> {
  return api.delete<void>(`/users/current/access-tokens/${encodeURIComponent(id)}`);
}

/** Address of the OGC API (next to the API: `/api` → `/ogc`), absolute, for GIS tools. */
export function ogcApiUrl(base = apiBaseUrl(), origin = globalThis.location?.origin ?? ''): string {
  const ogc = base.replace(/\/+$/, '').replace(/\/api$/, '/ogc');
  return /^https?:\/\//.test(ogc) ? ogc : `${origin}${ogc.startsWith('/') ? '' : '/'}${ogc}`;
}
