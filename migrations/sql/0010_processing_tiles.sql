-- Tiled processing (issue 24): a big project's classification is cut into tiles with
-- overlap buffers; each tile is one graphile-worker job ('processing-tile') any worker
-- process on any machine may take. One row per tile of a PROCESSING job: who runs it,
-- its heartbeat (a tile whose heartbeat stops is taken again), attempts and results.
-- Forward only: never edit an applied migration; add the next number instead.

CREATE TABLE processing_tiles (
  job_id bigint NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  tile integer NOT NULL CHECK (tile >= 0),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED')),
  -- The grid, the classification settings and the tile's store keys (engine/src/tiled).
  spec jsonb NOT NULL,
  -- Points in the tile's file (buffer included) and points it owns.
  points bigint NOT NULL DEFAULT 0,
  owned bigint,
  worker_id text,
  heartbeat_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  error_message text,
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (job_id, tile)
);
CREATE INDEX processing_tiles_open_idx ON processing_tiles (job_id) WHERE status <> 'DONE';
