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
}
