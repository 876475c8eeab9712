import { createHash, randomBytes } from 'node:crypto';
import {
  type AccessTokenOwner,
  type AccessTokenRow,
  countActiveAccessTokens,
  findAccessTokenOwner,
  insertAccessToken,
  listAccessTokens,
  revokeAccessToken,
} from '../db/queries/access-tokens.queries.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';

/**
 * Personal access tokens: read-only credentials a user makes for GIS tools
 * and scripts. A token opens `/ogc/*` (collections, items, vector tiles) as
 * its user, sent as `Authorization: Bearer <token>` or `?token=<token>`; it
 * never opens `/api/*` (the session middleware only takes session JWTs).
 * Only the SHA-256 of a token is stored; the token is shown once, when made.
 */

/** Every personal access token starts with this, so that it is told apart from session JWTs and share tokens. */
export const ACCESS_TOKEN_PREFIX = 'nuage_pat_';
/** Usable tokens a user may hold at once. */
export const MAX_ACCESS_TOKENS = 50;
/** Characters of the token shown in lists (the prefix and a few random ones). */
const SHOWN_CHARS = ACCESS_TOKEN_PREFIX.length + 6;

const TOKEN_SHAPE = /^nuage_pat_[A-Za-z0-9_-]{43}$/;

/** True when `value` has the shape of a personal access token (it may still be unknown or revoked). */
export function isAccessToken(value: string): boolean {
  return value.startsWith(ACCESS_TOKEN_PREFIX);
}

/** SHA-256 (hex) of a token: what the table keeps. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token as its owner sees it in lists (never the token itself). */
export interface AccessTokenView {
  id: string;
  name: string;
  /** The token's first characters, followed by an ellipsis. */
  prefix: string;
  scope: 'read';
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  expired: boolean;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function view(row: AccessTokenRow): AccessTokenView {
  const expiresAt = iso(row.expires_at);
  return {
    id: row.id,
    name: row.name,
    prefix: `${row.token_prefix}…`,
    scope: row.scope,
    createdAt: iso(row.created_at)!,
    lastUsedAt: iso(row.last_used_at),
    expiresAt,
    expired: expiresAt !== null && Date.parse(expiresAt) <= Date.now(),
  };
}

/** The user a valid personal access token opens. */
export interface AccessTokenUser {
  id: string;
  email: string;
  roles: string[];
  tokenId: string;
}

const invalid = () =>
  new AppError(401, 'ACCESS_TOKEN_INVALID', 'this access token is not valid (unknown, revoked or expired)');

/** True when `token` is shaped like a token this server makes (only those are looked up). */
export function isWellFormedAccessToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/**
 * The user a looked-up token opens; 401 ACCESS_TOKEN_INVALID when it is
 * unknown (undefined), revoked or expired, or its account is disabled or not activated.
 */
export function accessTokenUser(owner: AccessTokenOwner | undefined): AccessTokenUser {
  if (!owner || owner.revoked || owner.expired || !owner.enabled || owner.activation_pending) throw invalid();
  return { id: owner.user_id, email: owner.email, roles: owner.roles, tokenId: owner.token_id };
}

/** 401 ACCESS_TOKEN_INVALID for a token that is malformed (never looked up). */
export const invalidAccessToken = invalid;

/** Personal access tokens of the current user, and the check /ogc makes of one. */
export function createAccessTokensService(deps: AppDeps) {
  const { db } = deps.database;
  return {
    async list(userId: string): Promise<AccessTokenView[]> {
      return (await listAccessTokens(db, userId)).map(view);
    },

    /** Makes a token; the answer holds the token itself, which is never shown again. */
    async create(
      userId: string,
      input: { name: string; expiresInDays?: number | null | undefined },
    ): Promise<AccessTokenView & { token: string }> {
      const name = input.name.trim();
      if (name.length === 0) throw new AppError(400, 'FORM_INVALID', 'name: the token needs a name');
      if ((await countActiveAccessTokens(db, userId)) >= MAX_ACCESS_TOKENS) {
        throw new AppError(
          409,
          'ACCESS_TOKEN_LIMIT',
          `you already have ${MAX_ACCESS_TOKENS} access tokens: revoke one you no longer use`,
        );
      }
      const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
      const row = await insertAccessToken(db, {
        userId,
        name,
        tokenHash: hashAccessToken(token),
        tokenPrefix: token.slice(0, SHOWN_CHARS),
        expiresAt,
      });
      return { ...view(row), token };
    },

    /** Revokes one of the user's tokens at once; 404 ACCESS_TOKEN_NOT_FOUND for another user's or an unknown one. */
    async revoke(userId: string, id: string): Promise<void> {
      if (!/^\d{1,18}$/.test(id) || !(await revokeAccessToken(db, userId, id))) {
        throw new AppError(404, 'ACCESS_TOKEN_NOT_FOUND', 'you have no such access token');
      }
    },

    /**
     * The user a token opens; 401 ACCESS_TOKEN_INVALID when it is malformed,
     * unknown, revoked or expired, or its account is disabled or not activated.
     */
    async authenticate(token: string): Promise<AccessTokenUser> {
      if (!TOKEN_SHAPE.test(token)) throw invalid();
      return accessTokenUser(await findAccessTokenOwner(db, hashAccessToken(token)));
    },
  };
}
