import type { AppDeps } from '../context.js';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  listUsers,
  lockEnabledAdmins,
  type ProfilePatch,
  setRolesOrEnabled,
  type UserListQuery,
  type UserRow,
  updateProfile,
} from '../db/queries/users.queries.js';
import { AppError } from '../errors.js';
import {
  ACCOUNT_LIMITS,
  countryList,
  LANGUAGES,
  type Language,
  normalizeEmail,
  pickLanguage,
} from './account-rules/account.rules.js';
import type { Role } from './auth.service.js';
import { hashPassword } from './password.js';
import { ensureSubscription, standingOf } from './subscription.service.js';

/** The user object of the API (spec §3 User). */
export interface UserDto {
  id: string;
  /** The email: spec §3 calls it the username. */
  username: string;
  email: string;
  firstname: string;
  lastname: string;
  company: string | null;
  country: string | null;
  roles: Role[];
  preferLanguage: Language;
  preferDarkTheme: boolean;
  enabled: boolean;
  /** False from registration until the activation link is followed. */
  activated: boolean;
  premium: boolean;
  createdAt: string;
  lastLoginAt: string | null;
  ownedProjectsCount: number;
}

/** The API's view of a user row. */
export function toUserDto(row: UserRow): UserDto {
  return {
    id: String(row.id),
    username: row.email,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    company: row.company,
    country: row.country,
    roles: row.roles as Role[],
    preferLanguage: pickLanguage(row.prefer_language),
    preferDarkTheme: row.prefer_dark_theme,
    enabled: row.enabled,
    activated: !row.activation_pending,
    premium: row.premium,
    createdAt: new Date(row.created_at).toISOString(),
    lastLoginAt: row.last_login_at ? new Date(row.last_login_at).toISOString() : null,
    ownedProjectsCount: Number(row.owned_projects_count),
  };
}

/** Admin users get both roles: every admin is also a user (spec §2 user routes). */
export function normalizeRoles(roles: readonly Role[]): Role[] {
  return roles.includes('admin') ? ['admin', 'user'] : ['user'];
}

/** Fields of a user an admin creates (spec §2: email, password, role; names optional). */
export interface NewUserByAdmin {
  email: string;
  password: string;
  roles: Role[];
  firstname?: string | undefined;
  lastname?: string | undefined;
  company?: string | null | undefined;
  country?: string | undefined;
  preferLanguage?: Language | undefined;
}

/**
 * A user's own account (current user) and the admin's user management
 * (list, view, create, role, enabled), with the last-admin rule.
 */
export function createUsersService(deps: AppDeps) {
  const { db } = deps.database;

  async function getRow(id: string): Promise<UserRow> {
    const row = await findUserById(db, id);
    if (!row) throw new AppError(404, 'NO_ACCOUNT', `no account with id ${id}`);
    return row;
  }

  /**
   * Changes roles and/or enabled in one transaction that first locks every enabled
   * admin row: the last enabled admin can never lose the role or be disabled, even
   * when two admins are demoted at the same moment. Any change ends the user's sessions.
   */
  async function changeAccess(id: string, change: { roles?: Role[]; enabled?: boolean }): Promise<UserDto> {
    await db.transaction().execute(async (trx) => {
      const admins = await lockEnabledAdmins(trx);
      const target = await findUserById(trx, id);
      if (!target) throw new AppError(404, 'NO_ACCOUNT', `no account with id ${id}`);
      const roles = change.roles ?? (target.roles as Role[]);
      const enabled = change.enabled ?? target.enabled;
      const sameRoles = roles.length === target.roles.length && roles.every((r) => target.roles.includes(r));
      if (sameRoles && enabled === target.enabled) return;
      const staysAdmin = roles.includes('admin') && enabled;
      if (admins.includes(target.id) && !staysAdmin && admins.length <= 1) {
        throw new AppError(409, 'LAST_ADMIN', 'the last admin cannot lose the admin role or be disabled');
      }
      await setRolesOrEnabled(trx, id, { ...(change.roles ? { roles } : {}), enabled });
    });
    return toUserDto(await getRow(id));
  }

  return {
    /** The current user, with their credits when `includes` asks for them. */
    async current(id: string, includes: readonly 'totalCredits'[] = []): Promise<UserDto & { totalCredits?: number }> {
      const user = toUserDto(await getRow(id));
      if (includes.includes('totalCredits')) return { ...user, totalCredits: (await standingOf(deps, id)).credits };
      return user;
    },

    /** Applies preferences and profile changes to the current user. */
    async updateCurrent(id: string, patch: ProfilePatch): Promise<UserDto> {
      const row = await updateProfile(db, id, patch);
      if (!row) throw new AppError(404, 'NO_ACCOUNT', `no account with id ${id}`);
      return toUserDto(row);
    },

    /** Credits (hectares) the user has left: the balance of their current subscription. */
    async totalCredits(id: string): Promise<number> {
      return (await standingOf(deps, id)).credits;
    },

    /** What the registration form needs: countries (named in `language`), languages and field rules. */
    registrationForm(language: Language) {
      return {
        countries: countryList(language),
        languages: [...LANGUAGES],
        rules: {
          passwordMinLength: ACCOUNT_LIMITS.passwordMin,
          passwordMaxLength: ACCOUNT_LIMITS.passwordMax,
          passwordRequires: ['lowercase', 'uppercase', 'digit', 'special'] as Array<
            'lowercase' | 'uppercase' | 'digit' | 'special'
          >,
          nameMaxLength: ACCOUNT_LIMITS.nameMax,
          companyMaxLength: ACCOUNT_LIMITS.companyMax,
          disposableEmailsRefused: true,
        },
      };
    },

    /** One page of the admin users table. */
    async list(q: UserListQuery): Promise<{ count: number; results: UserDto[] }> {
      const { count, rows } = await listUsers(db, q);
      return { count, results: rows.map(toUserDto) };
    },

    /** One user, for an admin; 404 NO_ACCOUNT when there is none. */
    async get(id: string): Promise<UserDto> {
      return toUserDto(await getRow(id));
    },

    /** Creates an active account (the admin vouches for the address); 409 ACCOUNT_EXISTS on a taken email. */
    async create(u: NewUserByAdmin): Promise<UserDto> {
      const email = normalizeEmail(u.email);
      const exists = () => new AppError(409, 'ACCOUNT_EXISTS', 'this email already exists');
      if (await findUserByEmail(db, email)) throw exists();
      const row = await insertUser(db, {
        email,
        passwordHash: await hashPassword(u.password),
        firstname: u.firstname ?? '',
        lastname: u.lastname ?? '',
        company: u.company ?? null,
        country: u.country ?? null,
        roles: normalizeRoles(u.roles),
        preferLanguage: u.preferLanguage ?? 'en-US',
        activationPending: false,
      });
      if (!row) throw exists();
      await ensureSubscription(deps, row.id);
      return toUserDto(row);
    },

    /** Sets a user's roles (admin implies user). */
    setRoles(id: string, roles: Role[]): Promise<UserDto> {
      return changeAccess(id, { roles: normalizeRoles(roles) });
    },

    /** Enables or disables a user; disabling ends every session of the user. */
    setEnabled(id: string, enabled: boolean): Promise<UserDto> {
      return changeAccess(id, { enabled });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
