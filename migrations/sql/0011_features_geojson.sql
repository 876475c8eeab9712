-- Each feature's GeoJSON text in the storage CRS (CRS84, 8 decimals: about 1 mm), as the
-- OGC API Features items pages write it: a default-CRS page is then a concatenation of
-- stored texts instead of ST_AsGeoJSON and jsonb output for every row of every request
-- (a page of 100 points, 10 clients, three alternated runs: PostgreSQL 0.37, 0.31, 0.39 ms
-- of CPU against 0.27, 0.23, 0.20 ms; node-pg reads one column instead of three: 0.33 against
-- 0.22, 0.21, 0.15 ms).
-- The same text as the items path builds otherwise, byte for byte: the id a JSON number while
-- it is a safe integer (a string above 2^53 - 1), ST_AsGeoJSON(geom, 8, 0) (no `crs`
-- member) and the properties' jsonb text. Other CRSs and the HTML pages keep reading geom.
-- A stored generated column: PostgreSQL fills it on every INSERT and UPDATE, whatever writes
-- the row (processing's replaceFeatures, tests and benchmarks inserting with SQL), and fills
-- it for the rows already there when this migration runs (ADD COLUMN rewrites the table
-- under an exclusive lock: minutes for tens of millions of features).
-- Forward only: never edit an applied migration; add the next number instead.

ALTER TABLE features ADD COLUMN feature_json text GENERATED ALWAYS AS (
  '{"type":"Feature","id":'
  || CASE WHEN id <= 9007199254740991 THEN id::text ELSE '"' || id::text || '"' END
  || ',"geometry":' || ST_AsGeoJSON(geom, 8, 0)
  || ',"properties":' || properties::text
  || '}'
) STORED;
