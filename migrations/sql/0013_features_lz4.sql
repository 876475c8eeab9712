-- Long features (contour lines, crowns, risk polygons) are stored out of line (TOAST) and compressed:
-- their GeoJSON text (feature_json, 0011) always, their geometry and properties when it pays. PostgreSQL's
-- default method, pglz, compresses slowly: inserting 20,000 lines of 1,500 vertices (30 M vertices, as many
-- as the contours of a 0.5 GB survey) took 24.8 s with pglz against 5.8 s with lz4 (same rows, same
-- indexes, PostgreSQL 15; the GeoJSON text 40 kB a row, 17 kB compressed either way), and lz4 reads back
-- faster too. Rows already stored keep pglz (both are read alike); new values use lz4.
-- PostgreSQL built without lz4 (the embedded database) refuses the method (feature_not_supported): the
-- columns keep the default there.
-- Forward only: never edit an applied migration; add the next number instead.

DO $$
BEGIN
  ALTER TABLE features ALTER COLUMN feature_json SET COMPRESSION lz4;
  ALTER TABLE features ALTER COLUMN geom SET COMPRESSION lz4;
  ALTER TABLE features ALTER COLUMN properties SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'features keep the default compression: %', SQLERRM;
END
$$;
