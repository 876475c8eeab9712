-- Foundation: settings, worker heartbeats, users.
-- Forward only: never edit an applied migration; add the next number instead.

CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE worker_heartbeats (
  worker_id text PRIMARY KEY,
  hostname text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  beat_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  firstname text NOT NULL DEFAULT '',
  lastname text NOT NULL DEFAULT '',
  company text,
  country text,
  roles text[] NOT NULL DEFAULT ARRAY['user'],
  prefer_language text NOT NULL DEFAULT 'en-US',
  prefer_dark_theme boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT false,
  -- Raised to revoke every token issued before (logout everywhere, reset, role change, disable).
  token_version integer NOT NULL DEFAULT 0,
  premium boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_roles_known CHECK (roles <@ ARRAY['user', 'admin']::text[] AND cardinality(roles) > 0)
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
