import type { ColumnType, Generated } from 'kysely';

/**
 * The database as kysely sees it. Hand-kept beside the migrations: every
 * migration that changes a table updates its interface here (a test compares
 * the two so that they never drift).
 */
export interface Database {
  settings: SettingsTable;
  worker_heartbeats: WorkerHeartbeatsTable;
  users: UsersTable;
  user_tokens: UserTokensTable;
  revoked_sessions: RevokedSessionsTable;
  auth_attempts: AuthAttemptsTable;
  /** View: projects each user owns (0 until the projects table exists). */
  user_project_counts: { user_id: string; projects: number };
  /** View: credits (hectares) each user holds (0 until subscriptions exist). */
  user_credit_totals: { user_id: string; credits: number };
}

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SettingsTable {
  key: string;
  value: unknown;
  updated_at: Timestamp;
}

export interface WorkerHeartbeatsTable {
  worker_id: string;
  hostname: string;
  pid: number;
  started_at: Timestamp;
  beat_at: Timestamp;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  firstname: ColumnType<string, string | undefined, string>;
  lastname: ColumnType<string, string | undefined, string>;
  company: string | null;
  country: string | null;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  prefer_language: ColumnType<string, string | undefined, string>;
  prefer_dark_theme: ColumnType<boolean, boolean | undefined, boolean>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  token_version: ColumnType<number, number | undefined, number>;
  premium: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** True from registration until the activation link is followed. */
  activation_pending: ColumnType<boolean, boolean | undefined, boolean>;
  last_login_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface UserTokensTable {
  id: Generated<string>;
  user_id: string;
  purpose: 'activation' | 'password_reset';
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

export interface RevokedSessionsTable {
  session_id: string;
  user_id: string;
  revoked_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AuthAttemptsTable {
  id: Generated<string>;
  bucket: string;
  subject: string;
  created_at: Timestamp;
}
