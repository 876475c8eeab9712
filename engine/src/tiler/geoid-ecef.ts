import { geoidUndulation, verticalReference } from '../crs/geoid.js';
import type { CrsInfo, createTransformer } from '../crs/index.js';
import type { ColumnTransform } from './ecef-grid-transform.js';

const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);

/**
 * The tiler's exact source CRS → ECEF (EPSG:4978) transform, heights on the
 * globe included:
 * - orthometric heights (crs/geoid.ts `verticalReference`): the horizontal
 *   position goes to WGS84 longitude/latitude, the height stays as it is
 *   (as PROJ's compound-CRS pipelines keep it through a datum shift, its
 *   `push v_3` / `pop v_3`) and becomes ellipsoidal with the geoid
 *   undulation: h = H × vertical unit + N(λ, φ);
 * - ellipsoidal heights: proj4 straight to geocentric, the height taken as
 *   ellipsoidal in the source datum.
 *
 * The tiler interpolates this transform on a verified grid
 * (ecef-grid-transform.ts), so N is evaluated at the grid nodes and points in
 * between get it bilinearly: N varies by millimetres over a grid cell.
 * `create` is the CRS module's `createTransformer` (workers load that module lazily).
 */
export function globeEcefTransform(crs: CrsInfo, create: typeof createTransformer): ColumnTransform {
  if (verticalReference(crs).heights === 'ellipsoidal') return create(crs, 'EPSG:4978');
  const toLonLat = create(crs, 'EPSG:4326');
  const unit = crs.verticalUnitToMetre;
  return {
    forward(x, y, z, count) {
      toLonLat.forward(x, y, z, count);
      for (let i = 0; i < count; i++) {
        const lonDeg = x[i]!;
        const latDeg = y[i]!;
        const h = z[i]! * unit + geoidUndulation(lonDeg, latDeg);
        const lon = (lonDeg * Math.PI) / 180;
        const lat = (latDeg * Math.PI) / 180;
        const sinLat = Math.sin(lat);
        const cosLat = Math.cos(lat);
        const n = A / Math.sqrt(1 - E2 * sinLat * sinLat);
        x[i] = (n + h) * cosLat * Math.cos(lon);
        y[i] = (n + h) * cosLat * Math.sin(lon);
        z[i] = (n * (1 - E2) + h) * sinLat;
      }
    },
  };
}
