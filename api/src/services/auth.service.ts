import { randomBytes } from 'node:crypto';
import type { AuthUser, Role } from '../auth.types.js';
import { forgetLoginPair, reserveAttempt } from '../db/queries/auth-attempts.queries.js';
import {
  consumeToken,
  findUsableToken,
  replaceUserToken,
  revokeSession,
  type TokenPurpose,
} from '../db/queries/tokens.queries.js';
import {
  activateUser,
  bumpTokenVersion,
  findSessionUser,
  findUserByEmail,
  findUserById,
  insertUser,
  recordLogin,
  setPassword,
  type UserRow,
} from '../db/queries/users.queries.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { renderMail } from '../mail/mail.templates.js';
import { mailer } from '../mail/mailer.js';
import { type Language, normalizeEmail, pickLanguage } from './account-rules/account.rules.js';
import { hashPassword, verifyPassword } from './password.js';
import { countAttempt, countLoginAttempt, LOGIN_THROTTLE, RATE_RULES, releaseAttempts } from './rate-limit.service.js';
import { ensureSubscription } from './subscription.service.js';
import {
  hashMailToken,
  MAX_SESSION_MS,
  newMailToken,
  type RememberDays,
  type SessionClaims,
  tokenService,
} from './token.service.js';

// Roles of spec §6 and the user of a verified session: defined in auth.types.ts (types only).
export type { AuthUser, Role } from '../auth.types.js';

/** Reset links work for one hour (and once). */
export const RESET_TOKEN_MINUTES = 60;
/** Activation links work for two days (and once). */
export const ACTIVATION_TOKEN_HOURS = 48;
/** Seconds the client should wait before asking again for a mail that could not be sent. */
export const MAIL_RETRY_SECONDS = 60;

/**
 * Verifies a session token and loads its user: signature, expiry, the user's token
 * version (logout everywhere, reset, role change, disabling) and the session's
 * logout. Throws 401 TOKEN_INVALID / TOKEN_EXPIRED / TOKEN_REVOKED.
 */
export async function authenticate(deps: AppDeps, token: string, via: AuthUser['via']): Promise<AuthUser> {
  const claims = await tokenService(deps).verify(token);
  const row = await findSessionUser(deps.database.db, claims.userId, claims.sessionId);
  if (!row) throw new AppError(401, 'TOKEN_INVALID', 'the session token is not valid');
  if (row.session_revoked || row.token_version !== claims.tokenVersion || !row.enabled || row.activation_pending) {
    throw new AppError(401, 'TOKEN_REVOKED', 'this session has ended: log in again');
  }
  return {
    id: row.id,
    email: row.email,
    roles: row.roles as Role[],
    preferLanguage: pickLanguage(row.prefer_language),
    session: claims,
    via,
  };
}

// Verified against for unknown emails, so that a login costs one argon2 either way.
let dummyHash: Promise<string> | null = null;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/** Input of a registration (spec §3 registration payload). */
export interface Registration {
  email: string;
  password: string;
  firstname: string;
  lastname: string;
  company: string | null;
  country: string;
  preferLanguage: Language;
  activateUserUrl?: string | undefined;
}

/** A new session: the token and its claims, and the user it belongs to. */
export interface IssuedSession {
  token: string;
  claims: SessionClaims;
  user: UserRow;
}

/**
 * Login, registration, mail links, password reset and sessions (spec §7
 * Authentication). Routes call it; it never sees HTTP.
 */
export function createAuthService(deps: AppDeps) {
  const { db } = deps.database;
  const tokens = tokenService(deps);

  /** A link into the web app (hash routing) carrying `token`; a client-given base must be on PUBLIC_URL. */
  function appLink(route: string, clientUrl: string | undefined, token?: string): string {
    const base = new URL(deps.config.PUBLIC_URL.endsWith('/') ? deps.config.PUBLIC_URL : `${deps.config.PUBLIC_URL}/`);
    let url: URL;
    if (clientUrl) {
      url = checkAppUrl(clientUrl);
    } else {
      url = new URL(base);
      url.hash = `#/${route}`;
    }
    if (token !== undefined) {
      if (url.hash) url.hash = `${url.hash}${url.hash.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
      else url.searchParams.set('token', token);
    }
    return url.toString();
  }

  function checkAppUrl(clientUrl: string): URL {
    const base = new URL(deps.config.PUBLIC_URL.endsWith('/') ? deps.config.PUBLIC_URL : `${deps.config.PUBLIC_URL}/`);
    let url: URL;
    try {
      url = new URL(clientUrl);
    } catch {
      throw invalidLinkUrl();
    }
    if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(base.pathname) || url.username || url.password) {
      throw invalidLinkUrl();
    }
    return url;
  }

  async function issueSession(user: UserRow, rememberDays: RememberDays, sessionId?: string): Promise<IssuedSession> {
    const { token, claims } = await tokens.issue({
      userId: user.id,
      tokenVersion: user.token_version,
      rememberDays,
      ...(sessionId ? { sessionId } : {}),
    });
    return { token, claims, user };
  }

  async function sendMailOrThrow(
    to: string,
    content: ReturnType<typeof renderMail>,
    code: 'RESET_MAIL_FAILED' | 'ACTIVATION_MAIL_FAILED',
  ): Promise<void> {
    try {
      await mailer(deps).send(to, content);
    } catch (err) {
      deps.log.error({ err, to, subject: content.subject }, 'mail could not be sent');
      throw new AppError(503, code, `the mail could not be sent: try again in ${MAIL_RETRY_SECONDS} s`, {
        retryAfterSeconds: MAIL_RETRY_SECONDS,
      });
    }
  }

  async function mailActivation(user: UserRow, clientUrl: string | undefined): Promise<void> {
    const { token, hash } = newMailToken();
    const link = appLink('registration-token', clientUrl, token);
    await replaceUserToken(db, {
      userId: user.id,
      purpose: 'activation',
      tokenHash: hash,
      expiresAt: new Date(Date.now() + ACTIVATION_TOKEN_HOURS * 3_600_000),
    });
    const content = renderMail(
      { id: 'activation', name: user.firstname, link, hours: ACTIVATION_TOKEN_HOURS },
      pickLanguage(user.prefer_language),
    );
    await sendMailOrThrow(user.email, content, 'ACTIVATION_MAIL_FAILED');
  }

  /** Counts a mail request against the per-IP and per-address limits; returns the attempt ids. */
  async function countMailRequest(ip: string, email: string): Promise<string[]> {
    const byIp = await countAttempt(db, RATE_RULES.mailIp, ip);
    try {
      return [byIp, await countAttempt(db, RATE_RULES.mailAddress, email)];
    } catch (err) {
      await releaseAttempts(db, byIp);
      throw err;
    }
  }

  /**
   * Tells the owner of an account under attack (at most one mail per
   * LOGIN_THROTTLE.alertEverySeconds). Runs after the 401 is answered; a mail
   * that cannot be sent is logged, never shown to whoever is guessing.
   */
  async function alertLoginFailures(user: UserRow, failures: number): Promise<void> {
    try {
      const claim = await reserveAttempt(db, 'login-alert', user.email, 1, LOGIN_THROTTLE.alertEverySeconds);
      if (!claim.ok) return;
      const content = renderMail(
        {
          id: 'login-failures',
          name: user.firstname,
          failures,
          minutes: LOGIN_THROTTLE.windowSeconds / 60,
          forgotLink: appLink('auth/forgotPwd', undefined),
        },
        pickLanguage(user.prefer_language),
      );
      await mailer(deps).send(user.email, content);
    } catch (err) {
      deps.log.error({ err, userId: user.id }, 'the failed-login alert could not be sent');
    }
  }

  return {
    appLink,

    /**
     * Checks credentials. Unknown emails cost the same argon2 verification and get
     * the same 401 INVALID_CREDENTIALS as a wrong password; whether an account is
     * inactive is told only to someone who knows its password.
     */
    async login(input: { email: string; password: string; rememberDays: RememberDays; ip: string }) {
      const email = normalizeEmail(input.email);
      const attempt = await countLoginAttempt(db, email, input.ip);
      const user = await findUserByEmail(db, email);
      const ok = await verifyPassword(user?.password_hash ?? (await getDummyHash()), input.password);
      if (!user || !ok) {
        if (user && attempt.accountFailures >= LOGIN_THROTTLE.alertAfter) {
          void alertLoginFailures(user, attempt.accountFailures);
        }
        throw new AppError(401, 'INVALID_CREDENTIALS', 'invalid email or password');
      }
      // A successful login is not a failed attempt, and its client is the owner's.
      await releaseAttempts(db, ...attempt.ids);
      await forgetLoginPair(db, email, input.ip);
      if (user.activation_pending) {
        throw new AppError(403, 'ACCOUNT_NOT_ACTIVATED', 'the account is not activated: follow the link in its mail');
      }
      if (!user.enabled) throw new AppError(403, 'ACCOUNT_INACTIVE', 'the account is disabled: contact support');
      await recordLogin(db, user.id);
      return issueSession(user, input.rememberDays);
    },

    /** A fresh token for a valid one (same session, same remember-me length). */
    async refresh(token: string): Promise<IssuedSession> {
      const current = await authenticate(deps, token, 'bearer');
      const user = await findUserById(db, current.id);
      if (!user) throw new AppError(401, 'TOKEN_INVALID', 'the session token is not valid');
      return issueSession(user, current.session.rememberDays, current.session.sessionId);
    },

    /** Ends one session: its token and every refresh of it stop working. */
    async logout(user: AuthUser): Promise<void> {
      await revokeSession(db, user.session.sessionId, user.id, new Date(Date.now() + MAX_SESSION_MS));
    },

    /** Ends every session of the user, on every device. */
    async logoutEverywhere(user: AuthUser): Promise<void> {
      await bumpTokenVersion(db, user.id);
    },

    /**
     * Creates an account waiting for activation and mails its activation link.
     * An existing email is a 409 ACCOUNT_EXISTS (registration is the one public place
     * that tells, limited per IP; see README "Sessions and where we depart from the spec").
     */
    async register(r: Registration, ip: string): Promise<{ user: UserRow; activationMailSent: boolean }> {
      await countAttempt(db, RATE_RULES.registerIp, ip);
      if (r.activateUserUrl) checkAppUrl(r.activateUserUrl);
      const email = normalizeEmail(r.email);
      const exists = () => new AppError(409, 'ACCOUNT_EXISTS', 'an account already exists with this email');
      if (await findUserByEmail(db, email)) throw exists();
      const user = await insertUser(db, {
        email,
        passwordHash: await hashPassword(r.password),
        firstname: r.firstname,
        lastname: r.lastname,
        company: r.company,
        country: r.country,
        roles: ['user'],
        preferLanguage: r.preferLanguage,
        activationPending: true,
      });
      if (!user) throw exists();
      // Every new account starts on the default freemium template (spec §1 subscriptions).
      await ensureSubscription(deps, user.id);
      try {
        await mailActivation(user, r.activateUserUrl);
        return { user, activationMailSent: true };
      } catch (err) {
        if (err instanceof AppError && err.code === 'ACTIVATION_MAIL_FAILED')
          return { user, activationMailSent: false };
        throw err;
      }
    },

    /**
     * Mails a one-hour, single-use reset link to the account's address. Unknown
     * addresses get a mail saying there is no account, so the answer (and its time,
     * one mail either way) is the same for known and unknown emails.
     */
    async sendPasswordReset(input: {
      email: string;
      resetPasswordUrl?: string | undefined;
      ip: string;
      language: Language;
    }) {
      const email = normalizeEmail(input.email);
      if (input.resetPasswordUrl) checkAppUrl(input.resetPasswordUrl);
      const attempts = await countMailRequest(input.ip, email);
      try {
        const user = await findUserByEmail(db, email);
        if (user) {
          const { token, hash } = newMailToken();
          await replaceUserToken(db, {
            userId: user.id,
            purpose: 'password_reset',
            tokenHash: hash,
            expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000),
          });
          const link = appLink('reset-password-token', input.resetPasswordUrl, token);
          const content = renderMail(
            { id: 'password-reset', name: user.firstname, link, minutes: RESET_TOKEN_MINUTES },
            pickLanguage(user.prefer_language),
          );
          await sendMailOrThrow(user.email, content, 'RESET_MAIL_FAILED');
        } else {
          const content = renderMail(
            { id: 'reset-no-account', email, registerLink: appLink('auth/register', undefined) },
            input.language,
          );
          await sendMailOrThrow(email, content, 'RESET_MAIL_FAILED');
        }
      } catch (err) {
        // A mail that could not go out does not use up the user's tries.
        if (err instanceof AppError && err.code === 'RESET_MAIL_FAILED') {
          await releaseAttempts(db, ...attempts);
        }
        throw err;
      }
    },

    /**
     * Mails a new activation link when the account waits for activation; any other
     * address (active or unknown) gets a mail saying so. Same answer either way.
     */
    async sendActivation(input: {
      email: string;
      activateUserUrl?: string | undefined;
      ip: string;
      language: Language;
    }) {
      const email = normalizeEmail(input.email);
      if (input.activateUserUrl) checkAppUrl(input.activateUserUrl);
      const attempts = await countMailRequest(input.ip, email);
      try {
        const user = await findUserByEmail(db, email);
        if (user?.activation_pending) {
          await mailActivation(user, input.activateUserUrl);
        } else {
          const content = renderMail(
            {
              id: 'activation-not-pending',
              email,
              loginLink: appLink('auth/login', undefined),
              forgotLink: appLink('auth/forgotPwd', undefined),
            },
            user ? pickLanguage(user.prefer_language) : input.language,
          );
          await sendMailOrThrow(email, content, 'ACTIVATION_MAIL_FAILED');
        }
      } catch (err) {
        if (err instanceof AppError && err.code === 'ACTIVATION_MAIL_FAILED') {
          await releaseAttempts(db, ...attempts);
        }
        throw err;
      }
    },

    /** What a mail token is for and whose it is, without using it (the reset page's link check). */
    async inspectMailToken(token: string) {
      const hash = hashMailToken(token);
      for (const purpose of ['password_reset', 'activation'] as const) {
        const found = await findUsableToken(db, hash, purpose);
        if (found) return { username: found.email, purpose, expiresAt: found.expires_at };
      }
      throw invalidToken('password_reset');
    },

    /**
     * Sets a new password with a reset token (single use, one hour). Every session of
     * the account ends; the account counts as activated (its mail was read).
     */
    async resetPassword(input: { email?: string | undefined; token: string; password: string }): Promise<UserRow> {
      const hash = hashMailToken(input.token);
      const email = input.email === undefined ? undefined : normalizeEmail(input.email);
      // Cheap check first, so a bad token never costs an argon2 hash.
      const found = await findUsableToken(db, hash, 'password_reset');
      if (!found || (email !== undefined && found.email !== email)) throw invalidToken('password_reset');
      const passwordHash = await hashPassword(input.password);
      const userId = await db.transaction().execute(async (trx) => {
        const id = await consumeToken(trx, hash, 'password_reset', email);
        if (id) await setPassword(trx, id, passwordHash);
        return id;
      });
      if (!userId) throw invalidToken('password_reset');
      const user = await findUserById(db, userId);
      if (!user) throw invalidToken('password_reset');
      return user;
    },

    /** Activates an account with the token of its activation mail (single use). */
    async activate(input: { email?: string | undefined; token: string }): Promise<UserRow> {
      const email = input.email === undefined ? undefined : normalizeEmail(input.email);
      const userId = await db.transaction().execute(async (trx) => {
        const id = await consumeToken(trx, hashMailToken(input.token), 'activation', email);
        if (id) await activateUser(trx, id);
        return id;
      });
      const user = userId ? await findUserById(db, userId) : undefined;
      if (!user) throw invalidToken('activation');
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function invalidLinkUrl(): AppError {
  return new AppError(400, 'INVALID_LINK_URL', 'the link URL must point at this application (PUBLIC_URL)');
}

function invalidToken(purpose: TokenPurpose): AppError {
  return purpose === 'activation'
    ? new AppError(400, 'INVALID_ACTIVATION_LINK', 'invalid activation link, or missing or expired token')
    : new AppError(400, 'INVALID_RESET_LINK', 'invalid reset link, or missing or expired token');
}
