/**
 * Fast source-CRS → ECEF (or local frame) conversion for the tiler, in the spirit of GDAL's
 * approximate transformer: the exact transform (proj4, 1–2 µs a point) is
 * evaluated on a grid over the data's extent and interpolated bilinearly
 * (≈ 30 ns a point). ECEF is exactly affine in the height for a fixed
 * (x, y) — P(x, y, h) = A(x, y) + h·B(x, y), a datum shift included, and so is
 * any rigid frame change applied after it — so only
 * A and B are interpolated, and the grid is refined until the interpolation
 * error measured against the exact transform at cell centres is below
 * `tolerance`. Points off the grid go through the exact transform.
 */

/** In-place columnar transform (same shape as the CRS module's transformer). */
export interface ColumnTransform {
  forward(x: Float64Array, y: Float64Array, z: Float64Array, count: number): void;
}

/** Options of {@link createTransformGrid}. */
export interface TransformGridOptions {
  /** Largest accepted interpolation error, metres (default 0.5 mm). */
  tolerance?: number;
  /** Most grid cells per axis before giving up and using the exact transform (default 512). */
  maxCells?: number;
}

/**
 * The interpolation grid as plain data, so worker threads can rebuild the
 * same transform ({@link gridTransform}): `a` and `b` hold P = A + h·B per
 * node (3 values a node, x fastest), nodes `nx` × `ny` from (`x0`, `y0`) in
 * steps `dx`, `dy` (source units).
 */
export interface GridNodes {
  a: Float64Array;
  b: Float64Array;
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  nx: number;
  ny: number;
}

/** The grid transform and the error it was verified to (metres), or `exact` when no grid met the tolerance. */
export interface TransformGrid extends ColumnTransform {
  maxError: number;
  cells: number;
  exact: boolean;
  /** The grid (null when `exact`). */
  nodes: GridNodes | null;
}

/** Height span used to measure B (file units): large enough to average rounding, small enough to stay affine. */
const H_SPAN = 1000;

function evalNodes(exact: ColumnTransform, xs: Float64Array, ys: Float64Array): { a: Float64Array; b: Float64Array } {
  const n = xs.length;
  const x0 = Float64Array.from(xs);
  const y0 = Float64Array.from(ys);
  const z0 = new Float64Array(n);
  const x1 = Float64Array.from(xs);
  const y1 = Float64Array.from(ys);
  const z1 = new Float64Array(n).fill(H_SPAN);
  exact.forward(x0, y0, z0, n);
  exact.forward(x1, y1, z1, n);
  const a = new Float64Array(n * 3);
  const b = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    a[i * 3] = x0[i]!;
    a[i * 3 + 1] = y0[i]!;
    a[i * 3 + 2] = z0[i]!;
    b[i * 3] = (x1[i]! - x0[i]!) / H_SPAN;
    b[i * 3 + 1] = (y1[i]! - y0[i]!) / H_SPAN;
    b[i * 3 + 2] = (z1[i]! - z0[i]!) / H_SPAN;
  }
  return { a, b };
}

/**
 * Builds a verified interpolation grid over `bounds` (source units, padded by
 * 2 %) for heights in [minZ, maxZ]; returns the exact transform itself when
 * the extent is degenerate or no grid reaches the tolerance.
 */
export function createTransformGrid(
  exact: ColumnTransform,
  bounds: { minX: number; minY: number; maxX: number; maxY: number; minZ: number; maxZ: number },
  options: TransformGridOptions = {},
): TransformGrid {
  const tolerance = options.tolerance ?? 0.0005;
  const maxCells = options.maxCells ?? 512;
  const fallback: TransformGrid = {
    forward: (x, y, z, n) => exact.forward(x, y, z, n),
    maxError: 0,
    cells: 0,
    exact: true,
    nodes: null,
  };
  const w = bounds.maxX - bounds.minX;
  const h = bounds.maxY - bounds.minY;
  if (!(w >= 0 && h >= 0) || !Number.isFinite(w + h)) return fallback;
  const padX = w * 0.02 + 1;
  const padY = h * 0.02 + 1;
  const x0 = bounds.minX - padX;
  const y0 = bounds.minY - padY;
  const spanX = w + 2 * padX;
  const spanY = h + 2 * padY;
  for (let cells = 8; cells <= maxCells; cells *= 2) {
    const nx = cells + 1;
    const ny = cells + 1;
    const dx = spanX / cells;
    const dy = spanY / cells;
    const gx = new Float64Array(nx * ny);
    const gy = new Float64Array(nx * ny);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        gx[j * nx + i] = x0 + i * dx;
        gy[j * nx + i] = y0 + j * dy;
      }
    }
    const { a, b } = evalNodes(exact, gx, gy);
    let finite = true;
    for (let k = 0; k < a.length; k++) if (!Number.isFinite(a[k]!) || !Number.isFinite(b[k]!)) finite = false;
    if (!finite) return fallback;
    const nodes: GridNodes = { a, b, x0, y0, dx, dy, nx, ny };
    const grid = gridTransform(exact, nodes);
    // Check at cell centres (worst case of bilinear interpolation) for both height extremes.
    const cx: number[] = [];
    const cy: number[] = [];
    const cz: number[] = [];
    const step = Math.max(1, Math.floor(cells / 64));
    for (let j = 0; j < cells; j += step) {
      for (let i = 0; i < cells; i += step) {
        for (const zz of [bounds.minZ, bounds.maxZ]) {
          cx.push(x0 + (i + 0.5) * dx);
          cy.push(y0 + (j + 0.5) * dy);
          cz.push(zz);
        }
      }
    }
    const ex = Float64Array.from(cx);
    const ey = Float64Array.from(cy);
    const ez = Float64Array.from(cz);
    const ix = Float64Array.from(cx);
    const iy = Float64Array.from(cy);
    const iz = Float64Array.from(cz);
    exact.forward(ex, ey, ez, ex.length);
    grid.forward(ix, iy, iz, ix.length);
    let maxError = 0;
    for (let k = 0; k < ex.length; k++) {
      const e = Math.hypot(ex[k]! - ix[k]!, ey[k]! - iy[k]!, ez[k]! - iz[k]!);
      if (!(e <= maxError)) maxError = e;
    }
    if (maxError <= tolerance) return { ...grid, maxError, cells, exact: false, nodes };
  }
  return fallback;
}

/** The bilinear transform over `nodes`; points off the grid go through `exact`. */
export function gridTransform(exact: ColumnTransform, nodes: GridNodes): ColumnTransform {
  const { a, b, x0, y0, dx, dy, nx, ny } = nodes;
  const lastX = nx - 1;
  const lastY = ny - 1;
  return {
    forward(x, y, z, count) {
      const offGrid: number[] = [];
      for (let p = 0; p < count; p++) {
        const fx = (x[p]! - x0) / dx;
        const fy = (y[p]! - y0) / dy;
        if (!(fx >= 0 && fy >= 0 && fx <= lastX && fy <= lastY)) {
          offGrid.push(p);
          continue;
        }
        const i = Math.min(Math.floor(fx), lastX - 1);
        const j = Math.min(Math.floor(fy), lastY - 1);
        const tx = fx - i;
        const ty = fy - j;
        const w00 = (1 - tx) * (1 - ty);
        const w10 = tx * (1 - ty);
        const w01 = (1 - tx) * ty;
        const w11 = tx * ty;
        const k00 = (j * nx + i) * 3;
        const k10 = k00 + 3;
        const k01 = k00 + nx * 3;
        const k11 = k01 + 3;
        const h = z[p]!;
        x[p] =
          w00 * (a[k00]! + h * b[k00]!) +
          w10 * (a[k10]! + h * b[k10]!) +
          w01 * (a[k01]! + h * b[k01]!) +
          w11 * (a[k11]! + h * b[k11]!);
        y[p] =
          w00 * (a[k00 + 1]! + h * b[k00 + 1]!) +
          w10 * (a[k10 + 1]! + h * b[k10 + 1]!) +
          w01 * (a[k01 + 1]! + h * b[k01 + 1]!) +
          w11 * (a[k11 + 1]! + h * b[k11 + 1]!);
        z[p] =
          w00 * (a[k00 + 2]! + h * b[k00 + 2]!) +
          w10 * (a[k10 + 2]! + h * b[k10 + 2]!) +
          w01 * (a[k01 + 2]! + h * b[k01 + 2]!) +
          w11 * (a[k11 + 2]! + h * b[k11 + 2]!);
      }
      if (offGrid.length > 0) {
        const n = offGrid.length;
        const ox = Float64Array.from(offGrid, (p) => x[p]!);
        const oy = Float64Array.from(offGrid, (p) => y[p]!);
        const oz = Float64Array.from(offGrid, (p) => z[p]!);
        exact.forward(ox, oy, oz, n);
        for (let k = 0; k < n; k++) {
          const p = offGrid[k]!;
          x[p] = ox[k]!;
          y[p] = oy[k]!;
          z[p] = oz[k]!;
        }
      }
    },
  };
}
