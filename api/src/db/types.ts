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
  /**
   * View: credits (hectares) of each user (0006): `credits` is the balance of the current
   * subscription (null without one), `granted_hectares` every credit added, `charged_hectares` spent.
   */
  user_credit_totals: {
    user_id: string;
    credits: number | null;
    granted_hectares: number | null;
    charged_hectares: number;
  };
  projects: ProjectsTable;
  layers: LayersTable;
  assets: AssetsTable;
  asset_files: AssetFilesTable;
  jobs: JobsTable;
  processing_tiles: ProcessingTilesTable;
  charges: ChargesTable;
  user_limits: UserLimitsTable;
  features: FeaturesTable;
  access_tokens: AccessTokensTable;
  subscription_templates: SubscriptionTemplatesTable;
  subscriptions: SubscriptionsTable;
  subscription_events: SubscriptionEventsTable;
  payment_customers: PaymentCustomersTable;
  purchases: PurchasesTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  classification_edits: ClassificationEditsTable;
  classification_edit_bases: ClassificationEditBasesTable;
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

/** Project status (spec §4). */
export type ProjectStatus = 'NONE' | 'PENDING' | 'UPLOADING' | 'UPLOADED' | 'PROCESSING' | 'READY' | 'ERROR';
/** Layer type (spec §3), in display order. */
export type LayerType = 'POINT_CLOUD' | 'RASTER' | 'VECTOR' | 'REPORT';
/**
 * Asset type: POINT_CLOUD or the asset type of a product of the engine's
 * registry (`ASSET_TYPES` of engine/src/products/registry.ts; spec §3 names).
 */
export type AssetType = string;
/** Asset status (spec §4). */
export type AssetStatus =
  | 'NONE'
  | 'UPLOADING'
  | 'UPLOADED'
  | 'PROCESSING'
  | 'ABORTED'
  | 'EXTRACTING_METADATA'
  | 'TILING'
  | 'READY'
  | 'ERROR';
/** Job kinds: the admin monitors metadata-processing, tiling and process-data. */
export type JobKind = 'METADATA' | 'TILING' | 'PROCESSING' | 'CLASSIFICATION_EDIT';
/** Processing task state (spec §4). */
export type JobState = 'NONE' | 'PENDING' | 'PROGRESS' | 'SUCCESS' | 'FAILURE';

type NullableColumn<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface ProjectsTable {
  id: Generated<string>;
  owner_id: string;
  name: string;
  status: ColumnType<ProjectStatus, ProjectStatus | undefined, ProjectStatus>;
  las_name: NullableColumn<string>;
  area_hectares: NullableColumn<number>;
  system_id: NullableColumn<string>;
  generating_software: NullableColumn<string>;
  creation_day: NullableColumn<number>;
  creation_year: NullableColumn<number>;
  /** bigint: read as a string. */
  point_count: NullableColumn<string | number>;
  min_elevation: NullableColumn<number>;
  max_elevation: NullableColumn<number>;
  memory_gb: NullableColumn<number>;
  las_version: NullableColumn<string>;
  epsg_code: NullableColumn<number>;
  share_token: NullableColumn<string>;
  error_code: NullableColumn<string>;
  error_message: NullableColumn<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LayersTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  type: LayerType;
  created_at: Timestamp;
}

export interface AssetsTable {
  id: Generated<string>;
  project_id: string;
  layer_id: string;
  type: AssetType;
  status: ColumnType<AssetStatus, AssetStatus | undefined, AssetStatus>;
  name: string;
  storage: ColumnType<
    'CESIUM_ION' | 'CUSTOM_TILING',
    'CESIUM_ION' | 'CUSTOM_TILING' | undefined,
    'CESIUM_ION' | 'CUSTOM_TILING'
  >;
  tiling_type: NullableColumn<'GOCESIUM_TILER' | 'PY3DTILES'>;
  original_filename: NullableColumn<string>;
  /** bigint: read as a string. */
  declared_size: NullableColumn<string | number>;
  epsg_code: NullableColumn<number>;
  metadata: NullableColumn<unknown>;
  intensity_normalisation: ColumnType<boolean, boolean | undefined, boolean>;
  intensity_normalisation_min: NullableColumn<number>;
  tiles_prefix: NullableColumn<string>;
  /** bigint: read as a string. */
  stored_bytes: ColumnType<string, string | number | undefined, string | number>;
  upload_token_hash: NullableColumn<string>;
  upload_expires_at: NullableColumn<Date | string>;
  error_code: NullableColumn<string>;
  error_message: NullableColumn<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AssetFilesTable {
  id: Generated<string>;
  asset_id: string;
  extension: string;
  key: string;
  file_name: string;
  /** bigint: read as a string. */
  size: ColumnType<string, string | number, string | number>;
  content_type: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
}

/** One tile of a tiled PROCESSING job (0010). */
export interface ProcessingTilesTable {
  job_id: string;
  tile: number;
  status: Generated<'PENDING' | 'RUNNING' | 'DONE' | 'FAILED'>;
  spec: unknown;
  points: Generated<string>;
  owned: NullableColumn<string>;
  worker_id: NullableColumn<string>;
  heartbeat_at: NullableColumn<Timestamp>;
  attempts: Generated<number>;
  error_message: NullableColumn<string>;
  started_at: NullableColumn<Timestamp>;
  finished_at: NullableColumn<Timestamp>;
}

export interface JobsTable {
  id: Generated<string>;
  kind: JobKind;
  project_id: string;
  asset_id: NullableColumn<string>;
  user_id: NullableColumn<string>;
  state: ColumnType<JobState, JobState | undefined, JobState>;
  step: NullableColumn<string>;
  percentage: ColumnType<number, number | undefined, number>;
  options: NullableColumn<unknown>;
  result: NullableColumn<unknown>;
  error_code: NullableColumn<string>;
  error_message: NullableColumn<string>;
  attempts: ColumnType<number, number | undefined, number>;
  retry_count: ColumnType<number, number | undefined, number>;
  worker_id: NullableColumn<string>;
  locked_by: NullableColumn<string>;
  queued_at: NullableColumn<Date | string>;
  started_at: NullableColumn<Date | string>;
  finished_at: NullableColumn<Date | string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Kinds of rows of the credits ledger (migration 0006). */
export type LedgerKind =
  | 'opening'
  | 'allocation'
  | 'grant'
  | 'adjustment'
  | 'reservation'
  | 'release'
  | 'charge'
  | 'transfer';

/** The credits ledger (the charges table of 0003, extended by 0006). */
export interface ChargesTable {
  id: Generated<string>;
  charge_key: string;
  user_id: NullableColumn<string>;
  project_id: NullableColumn<string>;
  job_id: NullableColumn<string>;
  /** Size of the movement, hectares (≥ 0). */
  hectares: number;
  created_at: Timestamp;
  kind: ColumnType<LedgerKind, LedgerKind | undefined, LedgerKind>;
  subscription_id: NullableColumn<string>;
  /** What the row did to subscriptions.credits (signed hectares). */
  delta: ColumnType<number, number | undefined, number>;
  /** The reservation a release or a charge settles. */
  reservation_id: NullableColumn<string>;
  actor_id: NullableColumn<string>;
  note: NullableColumn<string>;
}

export interface UserLimitsTable {
  user_id: string;
  max_projects: NullableColumn<number>;
  /** bigint: read as a string. */
  max_input_file_bytes: NullableColumn<string | number>;
  /** bigint: read as a string. */
  max_storage_bytes: NullableColumn<string | number>;
  /** active | inactive | suspended | unsubscribed | none; null: the configured default. */
  subscription_status: NullableColumn<SubscriptionStatus>;
  /** Credits granted in hectares; null: the configured default. */
  credit_hectares: NullableColumn<number>;
  updated_at: Timestamp;
}

/** Standing of a user's subscription (spec §4 subscription status, plus none: no subscription at all). */
export type SubscriptionStatus = 'active' | 'inactive' | 'suspended' | 'unsubscribed' | 'none';

/** Subscription status of spec §4. */
export type SubscriptionState = 'active' | 'inactive' | 'suspended' | 'unsubscribed';
/** Subscription category (spec §3). */
export type SubscriptionCategory = 'PAID' | 'FREEMIUM';
/** How often a subscription receives its credits allowance. */
export type AllocationPeriod = 'NONE' | 'MONTH' | 'YEAR';

type Bytes = NullableColumn<string | number>;

export interface SubscriptionTemplatesTable {
  id: Generated<string>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  category: SubscriptionCategory;
  start_date: NullableColumn<Date | string>;
  end_date: NullableColumn<Date | string>;
  credits: ColumnType<number, number | undefined, number>;
  credits_allowance: ColumnType<number, number | undefined, number>;
  allocation_period: ColumnType<AllocationPeriod, AllocationPeriod | undefined, AllocationPeriod>;
  duration_months: NullableColumn<number>;
  premium: ColumnType<boolean, boolean | undefined, boolean>;
  price_amount: NullableColumn<number>;
  price_currency: NullableColumn<string>;
  payment_product_id: NullableColumn<string>;
  payment_product_reference: NullableColumn<string>;
  max_projects: NullableColumn<number>;
  /** bigint: read as a string. */
  max_input_file_bytes: Bytes;
  /** bigint: read as a string. */
  max_storage_bytes: Bytes;
  creator_id: NullableColumn<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  template_id: NullableColumn<string>;
  creator_id: NullableColumn<string>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  start_date: Timestamp;
  end_date: NullableColumn<Date | string>;
  status: ColumnType<SubscriptionState, SubscriptionState | undefined, SubscriptionState>;
  /** Generated from status: ACTIVE, INACTIVE or SUSPENDED. */
  global_status: ColumnType<'ACTIVE' | 'INACTIVE' | 'SUSPENDED', never, never>;
  category: SubscriptionCategory;
  credits: ColumnType<number, number | undefined, number>;
  credits_allowance: ColumnType<number, number | undefined, number>;
  allocation_period: ColumnType<AllocationPeriod, AllocationPeriod | undefined, AllocationPeriod>;
  last_allocation_date: NullableColumn<Date | string>;
  next_allocation_date: NullableColumn<Date | string>;
  valid_until: NullableColumn<Date | string>;
  unsubscribe_pending: ColumnType<boolean, boolean | undefined, boolean>;
  premium: ColumnType<boolean, boolean | undefined, boolean>;
  payment_product_id: NullableColumn<string>;
  payment_subscription_id: NullableColumn<string>;
  payment_product_reference: NullableColumn<string>;
  payment_customer_id: NullableColumn<string>;
  payment_failed_at: NullableColumn<Date | string>;
  grace_until: NullableColumn<Date | string>;
  suspension_reason: NullableColumn<'admin' | 'payment'>;
  max_projects: NullableColumn<number>;
  /** bigint: read as a string. */
  max_input_file_bytes: Bytes;
  /** bigint: read as a string. */
  max_storage_bytes: Bytes;
  is_current: ColumnType<boolean, boolean | undefined, boolean>;
  ended_at: NullableColumn<Date | string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SubscriptionEventsTable {
  id: Generated<string>;
  subscription_id: NullableColumn<string>;
  template_id: NullableColumn<string>;
  actor_id: NullableColumn<string>;
  action: string;
  details: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
}

export interface PaymentCustomersTable {
  user_id: string;
  customer_id: string;
  created_at: Timestamp;
}

export interface PurchasesTable {
  id: Generated<string>;
  user_id: NullableColumn<string>;
  template_id: NullableColumn<string>;
  subscription_id: NullableColumn<string>;
  checkout_session_id: NullableColumn<string>;
  mode: 'subscription' | 'payment';
  status: ColumnType<
    'open' | 'completed' | 'cancelled' | 'expired',
    'open' | 'completed' | 'cancelled' | 'expired' | undefined,
    'open' | 'completed' | 'cancelled' | 'expired'
  >;
  hectares: NullableColumn<number>;
  created_at: Timestamp;
  completed_at: NullableColumn<Date | string>;
}

export interface PaymentsTable {
  id: Generated<string>;
  provider_ref: string;
  user_id: NullableColumn<string>;
  subscription_id: NullableColumn<string>;
  template_id: NullableColumn<string>;
  amount: number;
  currency: string;
  paid_at: Timestamp;
}

export interface PaymentEventsTable {
  event_id: string;
  type: string;
  provider_created_at: NullableColumn<Date | string>;
  received_at: Timestamp;
  outcome: ColumnType<string, string | undefined, string>;
}

export interface FeaturesTable {
  id: Generated<string>;
  asset_id: string;
  /** PostGIS geometry (EPSG:4326, 2D or with Z: migration 0008); write it with ST_GeomFromGeoJSON, read it with ST_AsGeoJSON. */
  geom: unknown;
  properties: ColumnType<unknown, unknown, unknown>;
}

/** Personal access tokens (migration 0007): read-only credentials for /ogc, made by their user. */
export interface AccessTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  /** The token's first characters, shown in lists. */
  token_prefix: string;
  scope: ColumnType<'read', 'read' | undefined, 'read'>;
  expires_at: NullableColumn<Date | string>;
  last_used_at: NullableColumn<Date | string>;
  revoked_at: NullableColumn<Date | string>;
  created_at: Timestamp;
}

/** Classification edits (migration 0009): the edit layer of a project's classified cloud. */
export interface ClassificationEditsTable {
  id: Generated<string>;
  project_id: string;
  user_id: NullableColumn<string>;
  user_email: string;
  /** jsonb: write JSON text. */
  region: ColumnType<unknown, string, string>;
  from_classes: ColumnType<number[], number[] | undefined, number[]>;
  min_z: NullableColumn<number>;
  max_z: NullableColumn<number>;
  to_class: number;
  status: ColumnType<'ACTIVE' | 'REVERTED', 'ACTIVE' | 'REVERTED' | undefined, 'ACTIVE' | 'REVERTED'>;
  undone_at: NullableColumn<Date | string>;
  /** jsonb { total, byClass }: write JSON text. */
  changed: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The base classified cloud edits recompute from (migration 0009). */
export interface ClassificationEditBasesTable {
  project_id: string;
  asset_id: string;
  base_key: string;
  source_key: string;
  applied_key: NullableColumn<string>;
  updated_at: Timestamp;
}
