-- Classification edits (issue 23): regions drawn in the viewer that give points a class,
-- kept as an edit layer (who, when, which region and rule, from → to) and applied to the
-- classified cloud by a CLASSIFICATION_EDIT job that recomputes from the processing's cloud.
-- Forward only: never edit an applied migration; add the next number instead.

ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check
  CHECK (kind IN ('METADATA', 'TILING', 'PROCESSING', 'CLASSIFICATION_EDIT'));

CREATE TABLE classification_edits (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- Who: the user (kept as an email when the account goes).
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  user_email text NOT NULL,
  -- Which region: { kind: 'screen', matrix, polygon } or { kind: 'map', polygon } (engine/src/edit/class-edits.ts).
  region jsonb NOT NULL CHECK (jsonb_typeof(region) = 'object' AND region ->> 'kind' IN ('screen', 'map')),
  -- The rule: points of these classes (all when empty), Z in [min_z, max_z] (project CRS), get to_class.
  from_classes smallint[] NOT NULL DEFAULT '{}',
  min_z double precision,
  max_z double precision,
  to_class smallint NOT NULL CHECK (to_class BETWEEN 0 AND 255),
  status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'REVERTED')),
  -- Set by undo: the edit is on the redo stack until a new edit clears it (it stays REVERTED then).
  undone_at timestamptz,
  -- What the last apply job changed: { total, byClass: { "<from class>": n } }; null until applied.
  changed jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (undone_at IS NULL OR status = 'REVERTED')
);
CREATE INDEX classification_edits_project_idx ON classification_edits (project_id, id);

-- The classified cloud edits start from: a copy of the processing's LAS (base_key), taken the first
-- time; source_key is the processing file it was copied from, applied_key the file the last edit job
-- wrote. A classified file that is neither (a new processing) becomes the new base.
CREATE TABLE classification_edit_bases (
  project_id bigint PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  asset_id bigint NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  base_key text NOT NULL,
  source_key text NOT NULL,
  applied_key text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
