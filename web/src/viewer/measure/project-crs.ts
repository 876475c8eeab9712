import proj4 from 'proj4';
import { ecefToGeodetic, geodeticToEcef } from '../glb-points.js';
import type { GeodeticPosition } from './measure.types.js';

/**
 * The project's coordinate reference system on the client (proj4): positions
 * picked in the scene (WGS84, heights above the ellipsoid as the tiler wrote
 * them) to project coordinates and back, with the units that turn project
 * coordinates into metres. The tiler puts a point at the ellipsoidal height
 * `Z × verticalUnitToMetre + N` (engine/src/tiler/geoid-ecef.ts: N is the
 * geoid undulation for orthometric heights, 0 for ellipsoidal ones), so the
 * way back is `(height − N) / verticalUnitToMetre`, N interpolated in the
 * grid the server sends.
 */

/** A position in the project CRS: X and Y in its horizontal unit, Z in its vertical unit. */
export interface ProjectPoint {
  x: number;
  y: number;
  z: number;
}

/** Geoid undulations N (metres) on a WGS84 grid: `values[row * nx + col]`, row 0 at `south`, column 0 at `west`. */
export interface UndulationGrid {
  west: number;
  south: number;
  east: number;
  north: number;
  nx: number;
  ny: number;
  values: number[];
}

/** How the tiles hold heights. */
export interface VerticalDefinition {
  heights: 'orthometric' | 'ellipsoidal';
  geoidModel: string | null;
  undulation: UndulationGrid | null;
}

/**
 * N at a WGS84 position: bilinear between the grid's nodes, the edge's value
 * outside it.
 */
export function undulationAt(grid: UndulationGrid, lon: number, lat: number): number {
  const fx = ((lon - grid.west) / (grid.east - grid.west)) * (grid.nx - 1);
  const fy = ((lat - grid.south) / (grid.north - grid.south)) * (grid.ny - 1);
  const cx = Math.min(grid.nx - 1, Math.max(0, Number.isFinite(fx) ? fx : 0));
  const cy = Math.min(grid.ny - 1, Math.max(0, Number.isFinite(fy) ? fy : 0));
  const c0 = Math.min(grid.nx - 2, Math.floor(cx));
  const r0 = Math.min(grid.ny - 2, Math.floor(cy));
  const tx = cx - c0;
  const ty = cy - r0;
  const v = (c: number, r: number) => grid.values[r * grid.nx + c]!;
  return (
    (v(c0, r0) * (1 - tx) + v(c0 + 1, r0) * tx) * (1 - ty) + (v(c0, r0 + 1) * (1 - tx) + v(c0 + 1, r0 + 1) * tx) * ty
  );
}

/** What GET /projects/{id}/measure/crs answers. */
export interface ProjectCrsDefinition {
  epsg: number | null;
  name: string;
  /** A definition proj4 reads (proj4 string or WKT). */
  proj4: string;
  /** Metres per horizontal unit (0 for a geographic CRS). */
  horizontalUnitToMetre: number;
  /** Metres per unit of Z. */
  verticalUnitToMetre: number;
  /** How the tiles hold heights; absent: Z × unit (no geoid). */
  vertical?: VerticalDefinition | undefined;
}

/** Metres per unit of project coordinates. */
export interface CrsUnits {
  horizontal: number;
  vertical: number;
}

export interface ProjectCrs {
  definition: ProjectCrsDefinition;
  /** False for the local stand-in used when the project has no (projected) CRS: coordinates are shown in WGS84 only. */
  isProjectCrs: boolean;
  units: CrsUnits;
  toProject(p: GeodeticPosition): ProjectPoint;
  toGeodetic(p: ProjectPoint): GeodeticPosition;
  /** ECEF metres to project coordinates. */
  fromEcef(x: number, y: number, z: number): ProjectPoint;
  /** Project coordinates to ECEF metres. */
  toEcef(p: ProjectPoint): [number, number, number];
}

const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

/**
 * A transverse Mercator in metres centred on `lon0`, `lat0` (scale 1): the
 * frame measures use when the project has no projected CRS (none recorded,
 * or a geographic one). Distances within a few kilometres of the centre are
 * true to a few parts per million.
 */
export function localMetricCrsDefinition(lon0: number, lat0: number): ProjectCrsDefinition {
  return {
    epsg: null,
    name: 'Local transverse Mercator (WGS 84)',
    proj4: `+proj=tmerc +lat_0=${lat0} +lon_0=${lon0} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`,
    horizontalUnitToMetre: 1,
    verticalUnitToMetre: 1,
  };
}

/**
 * The project CRS as converters; `isProjectCrs` false marks a local stand-in.
 * @throws Error when proj4 cannot read the definition.
 *
 * @example
 * const crs = createProjectCrs({ epsg: 26912, name: 'NAD83 / UTM zone 12N', proj4: '+proj=utm +zone=12 +datum=NAD83 +units=m +no_defs', horizontalUnitToMetre: 1, verticalUnitToMetre: 1 });
 * crs.toProject({ lon: -111, lat: 40, height: 1500 }); // { x: 500000, y: 4427757.2…, z: 1500 }
 */
export function createProjectCrs(definition: ProjectCrsDefinition, isProjectCrs = true): ProjectCrs {
  const converter = proj4(WGS84, definition.proj4);
  const vertical = definition.verticalUnitToMetre > 0 ? definition.verticalUnitToMetre : 1;
  const units: CrsUnits = { horizontal: definition.horizontalUnitToMetre, vertical };
  const grid = definition.vertical?.heights === 'orthometric' ? definition.vertical.undulation : null;
  const undulation = (lon: number, lat: number) => (grid ? undulationAt(grid, lon, lat) : 0);
  const toProject = (p: GeodeticPosition): ProjectPoint => {
    const [x, y] = converter.forward([p.lon, p.lat]) as [number, number];
    return { x, y, z: (p.height - undulation(p.lon, p.lat)) / vertical };
  };
  const toGeodetic = (p: ProjectPoint): GeodeticPosition => {
    const [lon, lat] = converter.inverse([p.x, p.y]) as [number, number];
    return { lon, lat, height: p.z * vertical + undulation(lon, lat) };
  };
  return {
    definition,
    isProjectCrs,
    units,
    toProject,
    toGeodetic,
    fromEcef(x, y, z) {
      const [lon, lat, height] = ecefToGeodetic(x, y, z);
      return toProject({ lon, lat, height });
    },
    toEcef(p) {
      const g = toGeodetic(p);
      return geodeticToEcef(g.lon, g.lat, g.height);
    },
  };
}

/**
 * The CRS measures use: the project's own when it is projected, else a local
 * metric stand-in centred on `centre` (degrees).
 */
export function measureCrs(definition: ProjectCrsDefinition | null, centre: { lon: number; lat: number }): ProjectCrs {
  if (definition && definition.horizontalUnitToMetre > 0) {
    try {
      return createProjectCrs(definition, true);
    } catch {
      // A definition proj4 cannot read: measures still work in the local frame.
    }
  }
  return createProjectCrs(localMetricCrsDefinition(centre.lon, centre.lat), false);
}
