-- Personal access tokens: read-only credentials a user makes for GIS tools and scripts
-- (QGIS, GDAL, ArcGIS) that open /ogc/* as the user, never /api/*. Only the SHA-256 of a
-- token is kept: the token itself is shown once, when it is made.
-- Forward only: never edit an applied migration; add the next number instead.

CREATE TABLE access_tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  -- SHA-256 (hex) of the whole token.
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  -- The first characters of the token, shown in lists so that a user can tell tokens apart.
  token_prefix text NOT NULL,
  scope text NOT NULL DEFAULT 'read' CHECK (scope IN ('read')),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX access_tokens_user_idx ON access_tokens (user_id, created_at) WHERE revoked_at IS NULL;
