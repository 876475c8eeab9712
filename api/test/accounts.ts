import { hashPassword } from '../src/services/password.js';
import type { TestApp } from './app.js';

/** A password that satisfies every rule; test users are created with it. */
export const PASSWORD = 'Lidar-Tr33tops!';

let passwordHash: Promise<string> | null = null;

/** Inserts a user straight into the database (one argon2 hash for the whole file). */
export async function insertUser(
  t: TestApp,
  u: {
    email: string;
    roles?: string[];
    enabled?: boolean;
    activationPending?: boolean;
    firstname?: string;
    preferLanguage?: string;
  },
): Promise<string> {
  passwordHash ??= hashPassword(PASSWORD);
  const row = await t.tdb.db
    .insertInto('users')
    .values({
      email: u.email,
      password_hash: await passwordHash,
      firstname: u.firstname ?? 'Ada',
      lastname: 'Lovelace',
      country: 'FR',
      roles: u.roles ?? ['user'],
      enabled: u.enabled ?? true,
      activation_pending: u.activationPending ?? false,
      prefer_language: u.preferLanguage ?? 'en-US',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let ipCounter = 0;
/** A client IP of its own (TRUST_PROXY=true reads X-Forwarded-For), so per-IP limits never leak between tests. */
export function freshIp(): string {
  ipCounter++;
  return `10.${(process.pid >> 8) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** A JSON request. */
export function send(method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/** The parsed JSON body of a response (any, for assertions). */
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** `Authorization: Bearer` header. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** The `name=value` of the session cookie a response sets, for a Cookie header. */
export function sessionCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('nuage_session='));
  if (!set) throw new Error('no session cookie set');
  return set.split(';')[0]!;
}

/** Logs in and returns the token, the cookie and the body. */
export async function login(t: TestApp, email: string, password = PASSWORD, extra: Record<string, unknown> = {}) {
  const res = await t.app.request('/api/auth-jwt/login', send('POST', { username: email, password, ...extra }));
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${await res.text()}`);
  const body = await json(res);
  return { token: body.token as string, cookie: sessionCookie(res), body, res };
}

/** The token of a mail link (`...?token=...`). */
export function tokenFromMail(text: string): string {
  const m = /[?&]token=([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no token link in mail:\n${text}`);
  return decodeURIComponent(m[1]!);
}

/** The first http(s) link of a mail text. */
export function linkFromMail(text: string): string {
  const m = /https?:\/\/\S+/.exec(text);
  if (!m) throw new Error(`no link in mail:\n${text}`);
  return m[0];
}
