import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Database, UsersTable } from '../types.js';

/** A user row as stored, with the number of projects the user owns. */
export type UserRow = Selectable<UsersTable> & { owned_projects_count: number };

type Db = Kysely<Database>;

function withCounts(db: Db) {
  return db
    .selectFrom('users')
    .leftJoin('user_project_counts as pc', 'pc.user_id', 'users.id')
    .selectAll('users')
    .select((eb) => eb.fn.coalesce('pc.projects', eb.lit(0)).as('owned_projects_count'));
}

/** The user with this (lower-case) email, or undefined. */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return withCounts(db).where('users.email', '=', email).executeTakeFirst();
}

/** The user with this id, or undefined. Ids are bigint strings; anything else finds nothing. */
export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  if (!/^\d{1,18}$/.test(id)) return Promise.resolve(undefined);
  return withCounts(db).where('users.id', '=', id).executeTakeFirst();
}

/**
 * The user a session token names, with whether the token's session was ended by a
 * logout. One round trip per authenticated request.
 */
export function findSessionUser(db: Db, id: string, sessionId: string) {
  if (!/^\d{1,18}$/.test(id)) return Promise.resolve(undefined);
  return db
    .selectFrom('users')
    .select(['id', 'email', 'roles', 'enabled', 'activation_pending', 'token_version', 'prefer_language'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('revoked_sessions').select('session_id').where('session_id', '=', sessionId))
        .as('session_revoked'),
    )
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface NewUser {
  email: string;
  passwordHash: string;
  firstname: string;
  lastname: string;
  company: string | null;
  country: string | null;
  roles: string[];
  preferLanguage: string;
  activationPending: boolean;
}

/** Inserts a user; null when the email is already taken (case-insensitive). */
export async function insertUser(db: Db, u: NewUser): Promise<UserRow | null> {
  const inserted = await db
    .insertInto('users')
    .values({
      email: u.email,
      password_hash: u.passwordHash,
      firstname: u.firstname,
      lastname: u.lastname,
      company: u.company,
      country: u.country,
      roles: u.roles,
      prefer_language: u.preferLanguage,
      enabled: true,
      activation_pending: u.activationPending,
    })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  return (await findUserById(db, inserted.id)) ?? null;
}

/** Profile and preference fields a user may change on their own account. */
export interface ProfilePatch {
  firstname?: string;
  lastname?: string;
  company?: string | null;
  country?: string;
  preferLanguage?: string;
  preferDarkTheme?: boolean;
}

/** Applies a profile patch; returns the updated user. */
export async function updateProfile(db: Db, id: string, p: ProfilePatch): Promise<UserRow | undefined> {
  const values = {
    ...(p.firstname !== undefined ? { firstname: p.firstname } : {}),
    ...(p.lastname !== undefined ? { lastname: p.lastname } : {}),
    ...(p.company !== undefined ? { company: p.company } : {}),
    ...(p.country !== undefined ? { country: p.country } : {}),
    ...(p.preferLanguage !== undefined ? { prefer_language: p.preferLanguage } : {}),
    ...(p.preferDarkTheme !== undefined ? { prefer_dark_theme: p.preferDarkTheme } : {}),
  };
  if (Object.keys(values).length > 0) {
    await db
      .updateTable('users')
      .set({ ...values, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }
  return findUserById(db, id);
}

/**
 * Sets a new password hash, ends every session of the user (token version + 1)
 * and marks the account activated (the user proved they read its mail).
 */
export async function setPassword(db: Db, id: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      password_hash: passwordHash,
      token_version: eb('token_version', '+', 1),
      activation_pending: false,
      updated_at: sql`now()`,
    }))
    .where('id', '=', id)
    .execute();
}

/** Marks an account activated. */
export async function activateUser(db: Db, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ activation_pending: false, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Ends every session of the user at once. */
export async function bumpTokenVersion(db: Db, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Records a successful login time. */
export async function recordLogin(db: Db, id: string): Promise<void> {
  await db.updateTable('users').set({ last_login_at: sql`now()` }).where('id', '=', id).execute();
}

/**
 * Locks the rows of every enabled admin (SELECT ... FOR UPDATE, in id order) and
 * returns their ids. Two transactions that demote or disable admins serialise on
 * these locks; the second one re-reads the rows after the first commits, so it sees
 * the first one's change (PostgreSQL re-checks locked rows that changed).
 */
export async function lockEnabledAdmins(trx: Db): Promise<string[]> {
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where(({ eb, val }) => eb(val('admin'), '=', eb.fn.any('roles')))
    .where('enabled', '=', true)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

/** Sets roles and/or enabled, ending every session of the user. */
export async function setRolesOrEnabled(
  trx: Db,
  id: string,
  change: { roles?: string[]; enabled?: boolean },
): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({
      ...(change.roles ? { roles: change.roles } : {}),
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      token_version: eb('token_version', '+', 1),
      updated_at: sql`now()`,
    }))
    .where('id', '=', id)
    .execute();
}

/** Columns the admin users table sorts by (API name → expression). */
export const USER_SORT_COLUMNS = [
  'id',
  'email',
  'firstname',
  'lastname',
  'company',
  'country',
  'createdAt',
  'enabled',
  'ownedProjectsCount',
] as const;
export type UserSortColumn = (typeof USER_SORT_COLUMNS)[number];

export interface UserListQuery {
  limit: number;
  offset: number;
  sortBy: UserSortColumn;
  order: 'ASC' | 'DESC';
  search?: string | undefined;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** One page of users (with the total matching the search) for the admin table. */
export async function listUsers(db: Db, q: UserListQuery): Promise<{ count: number; rows: UserRow[] }> {
  const pattern = q.search ? `%${escapeLike(q.search.trim())}%` : null;
  const filter = (eb: ExpressionBuilder<Database & { pc: Database['user_project_counts'] }, 'users' | 'pc'>) =>
    pattern
      ? eb.or([
          eb('users.email', 'ilike', pattern),
          eb('users.firstname', 'ilike', pattern),
          eb('users.lastname', 'ilike', pattern),
          eb('users.company', 'ilike', pattern),
          eb('users.country', 'ilike', pattern),
        ])
      : eb.lit(true);
  const sortExpr = {
    id: sql`users.id`,
    email: sql`users.email`,
    firstname: sql`lower(users.firstname)`,
    lastname: sql`lower(users.lastname)`,
    company: sql`lower(users.company)`,
    country: sql`users.country`,
    createdAt: sql`users.created_at`,
    enabled: sql`users.enabled`,
    ownedProjectsCount: sql`coalesce(pc.projects, 0)`,
  }[q.sortBy];
  const direction = q.order === 'ASC' ? sql`ASC NULLS FIRST` : sql`DESC NULLS LAST`;
  // One query after the other: the embedded database serves one statement at a time.
  const rows = await withCounts(db)
    .where(filter)
    .orderBy(sql`${sortExpr} ${direction}`)
    .orderBy('users.id', q.order === 'ASC' ? 'asc' : 'desc')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = await db
    .selectFrom('users')
    .leftJoin('user_project_counts as pc', 'pc.user_id', 'users.id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(filter)
    .executeTakeFirstOrThrow();
  return { count: Number(total.n), rows };
}
