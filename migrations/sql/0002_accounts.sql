-- Accounts: activation state, one-time mail tokens, ended sessions, rate-limit attempts,
-- and the per-user figures other areas fill in (owned projects, credits).
-- Forward only: never edit an applied migration; add the next number instead.

-- Registration leaves the account waiting for its mail link; admin-created and
-- bootstrap accounts are active at once (the default).
ALTER TABLE users ADD COLUMN activation_pending boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN last_login_at timestamptz;
ALTER TABLE users ADD CONSTRAINT users_email_lower CHECK (email = lower(email));
ALTER TABLE users ADD CONSTRAINT users_lengths CHECK (
  char_length(firstname) < 255 AND char_length(lastname) < 255
  AND (company IS NULL OR char_length(company) <= 200)
  AND (country IS NULL OR country ~ '^[A-Z]{2}$')
);

-- Activation and password-reset tokens. Only a SHA-256 of the token is kept: the
-- token itself exists only in the mail sent to the account's address.
CREATE TABLE user_tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('activation', 'password_reset')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose);

-- Sessions ended by a logout: every token of the session (its refreshes share the
-- session id) is refused. A row can go once expires_at has passed, since no token of
-- the session can be valid after that.
CREATE TABLE revoked_sessions (
  session_id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  revoked_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_sessions_expiry_idx ON revoked_sessions (expires_at);

-- Rate limiting shared by every API process: one row per counted attempt
-- (bucket: login-account, login-ip, register-ip, mail-ip, mail-address; subject: email or IP).
CREATE TABLE auth_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bucket text NOT NULL,
  subject text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_attempts_lookup_idx ON auth_attempts (bucket, subject, created_at);

-- Per-user figures the user object shows, owned by other areas. Until their tables
-- exist the figures are 0; the migration that adds projects (or subscriptions)
-- replaces the view with the real count (same columns), e.g.
--   CREATE OR REPLACE VIEW user_project_counts AS
--     SELECT u.id AS user_id, count(p.id)::integer AS projects
--     FROM users u LEFT JOIN projects p ON p.owner_id = u.id GROUP BY u.id;
CREATE VIEW user_project_counts AS SELECT id AS user_id, 0::integer AS projects FROM users;
CREATE VIEW user_credit_totals AS SELECT id AS user_id, 0::double precision AS credits FROM users;
