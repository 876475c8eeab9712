-- Vector products keep their heights: power-line conductors (LineString Z), towers,
-- tree tops and grid points (Point Z) are stored with Z, so OGC API Features items,
-- GDAL and the viewer read the 3D geometry (contours, crowns and buildings stay 2D,
-- their heights are properties). The column takes 2D and 3D geometries in EPSG:4326.
-- Forward only: never edit an applied migration; add the next number instead.

ALTER TABLE features ALTER COLUMN geom TYPE geometry USING geom;
ALTER TABLE features ADD CONSTRAINT features_geom_srid CHECK (ST_SRID(geom) = 4326);
