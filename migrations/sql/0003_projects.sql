-- Projects: projects, layers, assets and their files, jobs (metadata, tiling,
-- processing), the charge ledger, per-user limits and vector features.
-- Forward only: never edit an applied migration; add the next number instead.

CREATE TABLE projects (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'NONE'
    CHECK (status IN ('NONE', 'PENDING', 'UPLOADING', 'UPLOADED', 'PROCESSING', 'READY', 'ERROR')),
  -- LAS facts (spec §3), filled by the metadata extraction job from the stored bytes.
  las_name text,
  area_hectares double precision,
  system_id text,
  generating_software text,
  creation_day integer,
  creation_year integer,
  point_count bigint,
  min_elevation double precision,
  max_elevation double precision,
  memory_gb double precision,
  las_version text,
  epsg_code integer,
  -- Read-only access for visitors; null when not shared.
  share_token text UNIQUE,
  error_code text,
  error_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT projects_name_rules CHECK (char_length(name) BETWEEN 1 AND 254 AND position('/' IN name) = 0)
);
CREATE UNIQUE INDEX projects_owner_name_key ON projects (owner_id, lower(name));
CREATE INDEX projects_created_idx ON projects (created_at);

-- One layer per type and project: products register their asset into the layer of their type.
CREATE TABLE layers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('POINT_CLOUD', 'RASTER', 'VECTOR', 'REPORT')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, type)
);

CREATE TABLE assets (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  layer_id bigint NOT NULL REFERENCES layers (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN (
    'POINT_CLOUD', 'CLASSIFIED_POINT_CLOUD', 'POWER_LINE', 'GRID', 'CONTOUR_LINE', 'CONTOUR_LINE_MAJOR',
    'CONTOUR_LINE_MINOR', 'BUILDINGS', 'TREE_CROWNS', 'TREE_TOPS', 'DTM', 'IMAGERY_DTM', 'HILLSHADE_DTM',
    'SLOPE_MAP', 'TOPOGRAPHIC_MAP', 'FOREST_INVENTORY', 'PDF_REPORT')),
  status text NOT NULL DEFAULT 'NONE' CHECK (status IN (
    'NONE', 'UPLOADING', 'UPLOADED', 'PROCESSING', 'ABORTED', 'EXTRACTING_METADATA', 'TILING', 'READY', 'ERROR')),
  name text NOT NULL,
  storage text NOT NULL DEFAULT 'CUSTOM_TILING' CHECK (storage IN ('CESIUM_ION', 'CUSTOM_TILING')),
  tiling_type text CHECK (tiling_type IN ('GOCESIUM_TILER', 'PY3DTILES')),
  -- The name the user's file had; metadata only, never part of a storage key.
  original_filename text,
  declared_size bigint,
  epsg_code integer,
  metadata jsonb,
  intensity_normalisation boolean NOT NULL DEFAULT false,
  intensity_normalisation_min integer,
  -- Store prefix of the asset's tiles (3D Tiles or raster tiles); one per tiling run, so tiles never change under a URL.
  tiles_prefix text,
  -- Bytes this asset holds in the store (input, files and tiles): the storage limit sums them.
  stored_bytes bigint NOT NULL DEFAULT 0,
  -- Single-use upload: SHA-256 of the token in the signed URL, cleared when the PUT starts.
  upload_token_hash text,
  upload_expires_at timestamptz,
  error_code text,
  error_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, type)
);
CREATE INDEX assets_layer_idx ON assets (layer_id);

-- Downloadable files of an asset (one per extension).
CREATE TABLE asset_files (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  asset_id bigint NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  extension text NOT NULL CHECK (extension ~ '^[a-z0-9]{1,10}$'),
  key text NOT NULL,
  file_name text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  content_type text NOT NULL DEFAULT 'application/octet-stream',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (asset_id, extension)
);

-- Metadata extraction, tiling and processing jobs as users and admins see them; the
-- queue itself is graphile-worker's (the job row id is the task payload).
CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('METADATA', 'TILING', 'PROCESSING')),
  project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  asset_id bigint REFERENCES assets (id) ON DELETE CASCADE,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  state text NOT NULL DEFAULT 'NONE' CHECK (state IN ('NONE', 'PENDING', 'PROGRESS', 'SUCCESS', 'FAILURE')),
  step text,
  percentage real NOT NULL DEFAULT 0 CHECK (percentage >= 0 AND percentage <= 100),
  options jsonb,
  result jsonb,
  error_code text,
  error_message text,
  -- Runs started (graphile-worker attempts, including resumptions after a crash or a shutdown).
  attempts integer NOT NULL DEFAULT 0,
  -- Times the job was run again after a failure (automatic retries and admin retries).
  retry_count integer NOT NULL DEFAULT 0,
  -- Who runs it now: our worker process id (worker_heartbeats) and graphile-worker's lock owner.
  worker_id text,
  locked_by text,
  queued_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_kind_idx ON jobs (kind, id);
CREATE INDEX jobs_project_idx ON jobs (project_id);
CREATE INDEX jobs_running_idx ON jobs (worker_id) WHERE state = 'PROGRESS';

-- Ledger of charges (hectares): one row per charged piece of work, keyed so that a
-- job run twice (crash, retry) can never be charged twice.
CREATE TABLE charges (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  charge_key text NOT NULL UNIQUE,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  project_id bigint REFERENCES projects (id) ON DELETE SET NULL,
  job_id bigint REFERENCES jobs (id) ON DELETE SET NULL,
  hectares double precision NOT NULL CHECK (hectares >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX charges_user_idx ON charges (user_id, created_at);

-- Per-user limits (billing fills them from the subscription); a missing row or a null
-- column means the default of the API (services/limits.service.ts).
CREATE TABLE user_limits (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  max_projects integer CHECK (max_projects >= 0),
  max_input_file_bytes bigint CHECK (max_input_file_bytes >= 0),
  max_storage_bytes bigint CHECK (max_storage_bytes >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Vector products (contours, grid, buildings...) as features, served by OGC API Features.
CREATE TABLE features (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  asset_id bigint NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  geom geometry(Geometry, 4326) NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX features_geom_idx ON features USING gist (geom);
CREATE INDEX features_asset_idx ON features (asset_id, id);

-- The owned-projects figure of the user object now counts real projects.
CREATE OR REPLACE VIEW user_project_counts AS
  SELECT u.id AS user_id, count(p.id)::integer AS projects
  FROM users u LEFT JOIN projects p ON p.owner_id = u.id
  GROUP BY u.id;
