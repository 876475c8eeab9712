import type { PointChunk } from '../core/chunk.js';
import { EDGE_MIN_HEIGHT_M, roofEdges } from './buildings-edges.js';
import { fitPlanesParallel } from './buildings-fit.js';
import { type FacePlanes, growRoofs } from './buildings-grow.js';
import { planeOfSums } from './buildings-plane.js';
import { smallRoofs } from './buildings-small.js';
import { buildPointGrid, extent, meanSpacing } from './point-grid.js';

/** Building options, already validated (see `classifyOptionsSchema`). Lengths in metres. */
export interface BuildingOptions {
  /** Lowest roof above ground. */
  minHeight: number;
  /** Smallest roof area kept as a building, square metres. */
  minArea: number;
  /**
   * Largest RMS distance of a roof seed's neighbourhood to its fitted plane;
   * points join a roof face within twice this distance of the face's plane.
   */
  roofPlanarity: number;
  /** Horizontal CRS unit in metres. */
  unitToMetre: number;
  /** Vertical unit in metres. */
  verticalUnitToMetre: number;
}

// Fixed for every density (measured on the AHN3, IGN, fusa, Williams and
// Nebraska vendor buildings, and on the wires.laz forest for false ones).
/** Points a plane fit expects at the local density; sets the neighbourhood radius. */
const FIT_NEIGHBOURS = 16;
/** Neighbourhood radius bounds, metres: wider ones straddle roof ridges. */
const MIN_RADIUS_M = 0.5;
const MAX_RADIUS_M = 3;
/** Below this many neighbours a point is fitted again over a 1.3× wider radius (sparse clouds). */
const SPARSE_NEIGHBOURS = 6;
const SPARSE_RADIUS_FACTOR = 1.3;
/**
 * Sparse clouds (the radius at `MAX_RADIUS_M` holds too few points, so a
 * neighbourhood straddles ridges and eaves): a rough fit over at most
 * `ROBUST_MAX_POINTS` points of a single return is fitted again on the plane
 * through the point and two single-return neighbours that holds most of them
 * within `roofPlanarity` — at least `ROBUST_INLIERS` of them, with at most
 * `ROBUST_MAX_MULTI` of the neighbourhood from pulses of many returns
 * (foliage). Measured on the IGN file (0.2–0.4 points/m²).
 */
const ROBUST_MAX_POINTS = 12;
const ROBUST_INLIERS = 0.6;
const ROBUST_MAX_MULTI = 0.25;
/** Margin, in cells, of the cells a neighbourhood scan reaches (rounding of the cell of a point). */
const SPAN_MARGIN = 1e-6;
/** Fewest points of a plane fit, and of a seed's. */
const MIN_FIT_POINTS = 5;
const MIN_SEED_POINTS = 6;
/** A smooth point joins a face only when its normal is within this angle of the face's. */
const NORMAL_ANGLE_DEG = 20;
/** A face seeded above `minHeight` may reach this far below it (eaves), metres. */
const EAVES_M = 0.5;
/**
 * A rough point (ridge, edge, too few neighbours) that lies within this share
 * of the distance tolerance, and whose neighbours lie at least `CARRY_INLIERS`
 * on the face's plane, carries the growth on (last or single returns only).
 */
const CARRY_SHARE = 0.25;
const CARRY_INLIERS = 0.5;
/**
 * Vegetation test of a face: neighbours just off its plane (within 3× the
 * tolerance) per neighbour on it. A roof occludes what lies under it; a slab
 * cut through foliage has as many points beside it as in it.
 */
const NEAR_BAND = 3;
const MAX_NEAR_RATIO = 0.5;
/** Largest share of first-of-many returns in a face (foliage lets later returns through). */
const MAX_NON_LAST = 0.5;
/** Smallest face kept: points and square metres. */
const MIN_FACE_POINTS = 5;
const MIN_FACE_AREA_M2 = 3;
/** Steeper faces are walls: part of a building next to a roof, never one by themselves. */
const WALL_SLOPE_DEG = 75;
/** A grid cell is roof when accepted faces hold this share of its points above `minHeight`. */
const ROOF_CELL_SHARE = 0.3;
/** Other points of a building cell join it up to this height above its highest face point, metres (not overhanging branches). */
const FILL_ABOVE_M = 0.5;
/**
 * Canopy test of a building (a group of roof cells): crowns of trees yield
 * patches of faces as well, rougher than the cloud's roofs (leaves scatter
 * within the tolerance band) and with neighbours just off their planes. A
 * group is dropped when its faces' point-weighted RMS exceeds
 * `ROUGH_FACTOR` × the cloud's roof noise (the point-weighted median RMS of
 * every accepted face: the sensor's ranging noise on roofs) and their near
 * band holds more than `GROUP_NEAR_RATIO` per in-band neighbour. Relative
 * to the cloud's own noise, so one setting serves sensors of 2–8 cm noise.
 * Groups of fewer than `CANOPY_TEST_POINTS` face points give no reliable
 * RMS: they are not tested, and need `UNTESTED_MIN_AREA_M2` of roof (a
 * patch of crown of a few square metres is as planar as a small roof).
 * Sparse clouds (the fit radius at `MAX_RADIUS_M`: faces of a few robust
 * fits, whose RMS says little) get the near band alone on their small
 * groups (`SPARSE_NEAR_RATIO`).
 */
const ROUGH_FACTOR = 1.5;
const GROUP_NEAR_RATIO = 0.08;
const CANOPY_TEST_POINTS = 30;
const UNTESTED_MIN_AREA_M2 = 20;
/**
 * Canopy test of sparse clouds' small groups (fewer than
 * `CANOPY_TEST_POINTS` face points), near band only: such a group is
 * dropped when its faces' near band holds more than this per in-band
 * neighbour (half what a single face may hold, `MAX_NEAR_RATIO`).
 * Single-return crowns (conifers, dense hedgerows) yield small faces that
 * pass one by one; a roof occludes what lies beside its planes, a crown
 * does not. Larger groups are roofs that trees beside them can crowd.
 * Measured on the IGN file: of our building points in groups over 0.25,
 * 135 of 149 were the vendor's high vegetation; point precision 0.9521 →
 * 0.9549 at recall 0.8369 → 0.8354 (at 0.3 under half that precision gain,
 * at 0.2 another 0.005 of recall lost for none, both testing every group).
 * Testing every group: the same on the IGN file, but on the Williams file
 * thinned to 0.35 points/m² recall 0.643 → 0.617 (0.643 as it is).
 */
const SPARSE_NEAR_RATIO = 0.25;
/**
 * Sparse clouds (the fit radius at `MAX_RADIUS_M`, under ~0.6 points/m²): a
 * low or small roof holds a handful of points, too few to tell it from a
 * hedge or a car, so roofs there need at least this height and area.
 */
const SPARSE_MIN_HEIGHT_M = 2.5;
const SPARSE_MIN_AREA_M2 = 20;
/** Passes of `roofEdges`, each judged on the building as the previous left it. */
const EDGE_PASSES = 2;

/**
 * Buildings (class 6): roof faces grown from the most planar points, grouped
 * into buildings of at least `minArea`.
 *
 * 1. Candidates are non-ground, non-noise points at least `minHeight` above
 *    ground (`EAVES_M` less for points joining a face); sparse clouds need
 *    `SPARSE_MIN_HEIGHT_M` and `SPARSE_MIN_AREA_M2` at least.
 * 2. Every candidate gets a plane fit (orthogonal RMS and normal) over its
 *    neighbours within a radius that holds ~16 points at the cloud's density;
 *    in sparse clouds, a rough single return takes the plane through it that
 *    most of its single-return neighbours lie on (ridges, eaves).
 * 3. Faces grow from seeds (last or single returns with RMS below
 *    `roofPlanarity`, most planar first) to neighbours within
 *    2 × `roofPlanarity` of the face's plane (refitted as it grows) whose
 *    normal agrees; rough points on the plane (ridges, edges) join it too.
 * 4. Faces that look like foliage (many points just off the plane, many
 *    first-of-many returns) or are tiny are dropped; near-vertical ones are walls.
 * 5. Grid cells dominated by faces, connected, with at least `minArea` of
 *    roof and not rough like canopy (`ROUGH_FACTOR`; small groups of
 *    sparse clouds: not with many points beside their planes,
 *    `SPARSE_NEAR_RATIO`), are buildings: their face points and their
 *    other points up to `FILL_ABOVE_M` over the faces (roof edges,
 *    chimneys; not branches).
 * 6. Roof edges (see `roofEdges`): candidates at least `EDGE_MIN_HEIGHT_M`
 *    above ground within 1 m (or the fit radius) of a building that lie on
 *    the plane of its points around them and not under branches or in a
 *    crown (eaves, gutters, the last row of returns of a face, whose fits
 *    fail).
 * 7. Sparse clouds: small roofs fitted whole (see `smallRoofs`: clusters of
 *    single returns on one plane or two meeting in a ridge, alone or beside
 *    a building), then roofs continued from the buildings (see
 *    `growRoofs`) over opaque points at their heights (whole roof faces
 *    whose fits fail) and over points on the planes of kept faces
 *    (`facePlanes`).
 *
 * @example
 * const building = findBuildings(cloud, ground, noise, hag, { minHeight: 2, minArea: 10, roofPlanarity: 0.1, unitToMetre: 1, verticalUnitToMetre: 1 });
 */
export function findBuildings(
  cloud: PointChunk,
  ground: Uint8Array,
  noise: Uint8Array,
  hag: Float32Array,
  o: BuildingOptions,
): Uint8Array {
  const prep = prepareBuildings(cloud, ground, noise, hag, o);
  if (!prep) return new Uint8Array(cloud.count);
  const fit = fitPlanes(prep.s, 1 / o.unitToMetre, o.roofPlanarity / o.unitToMetre, 0, prep.s.count, prep.seedSlots);
  return finishBuildings(prep, fit);
}

/** Clouds with at least this many candidate points fit their roof planes in worker threads. */
const PARALLEL_FIT_SLOTS = 400_000;

/**
 * {@link findBuildings} with the plane fits (the costliest step where
 * vegetation is dense) in worker threads; the same result.
 */
export async function findBuildingsParallel(
  cloud: PointChunk,
  ground: Uint8Array,
  noise: Uint8Array,
  hag: Float32Array,
  o: BuildingOptions,
  workers?: number,
  parallelFrom = PARALLEL_FIT_SLOTS,
): Promise<Uint8Array> {
  const prep = prepareBuildings(cloud, ground, noise, hag, o, parallelFrom);
  if (!prep) return new Uint8Array(cloud.count);
  const metre = 1 / o.unitToMetre;
  const planarity = o.roofPlanarity / o.unitToMetre;
  const fit =
    prep.s.count >= parallelFrom
      ? await fitPlanesParallel(prep.s, metre, planarity, workers, prep.seedSlots)
      : fitPlanes(prep.s, metre, planarity, 0, prep.s.count, prep.seedSlots);
  return finishBuildings(prep, fit);
}

/** The candidates of a cloud in grid order, with what the later steps read. */
interface PreparedBuildings {
  s: Slots;
  /**
   * 1 for the slots that may seed a face (last or single returns above
   * `minHeight`): fitted first; the others only when a face reaches them.
   */
  seedSlots: Uint8Array;
  count: number;
  hu: number;
  density: number;
  radius: number;
  sparse: boolean;
  minArea: number;
  o: BuildingOptions;
}

/**
 * Candidates (non-ground points high enough) as slots in grid order; null
 * when too few. From `shareFrom` slots on, what the fit threads read is
 * allocated in shared memory (the threads get it without a copy).
 */
function prepareBuildings(
  cloud: PointChunk,
  ground: Uint8Array,
  noise: Uint8Array,
  hag: Float32Array,
  o: BuildingOptions,
  shareFrom = Number.POSITIVE_INFINITY,
): PreparedBuildings | null {
  const { x, y, z, count } = cloud;
  const hu = o.unitToMetre;
  const vu = o.verticalUnitToMetre;
  if (count < 10) return null;
  const b = extent(x, y, count);
  const density = medianDensity(x, y, count, b, Math.max(2 / hu, 3 * meanSpacing(b, count)));
  const radius = Math.min(
    MAX_RADIUS_M / hu,
    Math.max(MIN_RADIUS_M / hu, Math.sqrt(FIT_NEIGHBOURS / (Math.PI * density))),
  );
  const sparse = radius >= (MAX_RADIUS_M / hu) * (1 - 1e-9);
  const minHeight = sparse ? Math.max(o.minHeight, SPARSE_MIN_HEIGHT_M) : o.minHeight;
  const minArea = sparse ? Math.max(o.minArea, SPARSE_MIN_AREA_M2) : o.minArea;
  const minH = minHeight / vu;
  const lowH = Math.max(0, minHeight - EAVES_M) / vu;
  const candidate = (i: number) => ground[i] === 0 && noise[i] === 0 && hag[i]! >= lowH;
  const grid = buildPointGrid(x, y, count, radius, candidate, b);
  // Candidates copied in grid order ("slots"): a row of cells is one contiguous range.
  const m = grid.index.length;
  if (m < 10) return null;
  const share = m >= shareFrom;
  const bytes = (n: number) => (share ? new SharedArrayBuffer(n) : new ArrayBuffer(n));
  const s: Slots = {
    x: new Float64Array(bytes(8 * m)),
    y: new Float64Array(bytes(8 * m)),
    z: new Float64Array(bytes(8 * m)),
    cell: new Int32Array(bytes(4 * m)),
    roofHigh: new Uint8Array(m),
    edgeHigh: new Uint8Array(m),
    last: new Uint8Array(m),
    single: new Uint8Array(bytes(m)),
    count: m,
    grid,
    radius,
  };
  const zScale = vu / hu;
  const edgeH = EDGE_MIN_HEIGHT_M / vu;
  const rn = cloud.returnNumber;
  const nr = cloud.numberOfReturns;
  const { start, index } = grid;
  const cells = grid.cols * grid.rows;
  for (let k = 0; k < cells; k++) {
    const end = start[k + 1]!;
    for (let q = start[k]!; q < end; q++) {
      const i = index[q]!;
      s.x[q] = x[i]! - b.minX;
      s.y[q] = y[i]! - b.minY;
      s.z[q] = z[i]! * zScale;
      s.cell[q] = k;
      s.roofHigh[q] = hag[i]! >= minH ? 1 : 0;
      s.edgeHigh[q] = hag[i]! >= edgeH ? 1 : 0;
      s.last[q] = !rn || !nr || rn[i]! >= nr[i]! ? 1 : 0;
      s.single[q] = !nr || nr[i]! <= 1 ? 1 : 0;
    }
  }
  const seedSlots = new Uint8Array(bytes(m));
  for (let q = 0; q < m; q++) seedSlots[q] = s.last[q]! & s.roofHigh[q]!;
  return { s, seedSlots, count, hu, density, radius, sparse, minArea, o };
}

/** Roof faces from the plane fits, then buildings, roof edges and (sparse clouds) roofs grown: the class-6 mask. */
function finishBuildings(prep: PreparedBuildings, fit: PlaneFits): Uint8Array {
  const { s, count, hu, density, radius, sparse, minArea, o } = prep;
  const out = new Uint8Array(count);
  const m = s.count;
  const grid = s.grid;
  // Face areas counted in cells of about one point spacing (at least 0.5 m).
  const footprintCell = Math.max(0.5 / hu, 1 / Math.sqrt(density));
  const minFootprint = Math.ceil(MIN_FACE_AREA_M2 / (hu * hu) / (footprintCell * footprintCell));
  const faces = growFaces(s, fit, o.roofPlanarity / hu, 1 / hu, footprintCell, minFootprint);
  const accepted = acceptFaces(faces, minFootprint);
  const building = buildingSlots(s, faces, accepted, minArea / (hu * hu), sparse, FILL_ABOVE_M / hu, 1 / hu);
  for (let pass = 0; pass < EDGE_PASSES; pass++) {
    const edges = roofEdges(s, faces.face, building, o.roofPlanarity / hu, 1 / hu, radius);
    let added = 0;
    for (let q = 0; q < m; q++) {
      if (edges[q] && !building[q]) {
        building[q] = 1;
        added++;
      }
    }
    if (added === 0) break;
  }
  if (sparse) {
    smallRoofs(s, building, (2 * o.roofPlanarity) / hu, 1 / Math.sqrt(density), minArea / (hu * hu));
    const onFace = new Uint8Array(m);
    for (let q = 0; q < m; q++) {
      const f = faces.face[q]!;
      if (f >= 0 && accepted[f] === 1) onFace[q] = 1;
    }
    growRoofs(s, building, 1 / hu, 1 / Math.sqrt(density), onFace, facePlanes(s, faces, accepted));
  }
  for (let q = 0; q < m; q++) if (building[q]) out[grid.index[q]!] = 1;
  return out;
}

/** Least-squares planes of the kept roof faces, and the face of every slot on one (-1 for none). */
function facePlanes(s: Slots, faces: Faces, kind: Uint8Array): FacePlanes {
  const faceOf = new Int32Array(s.count).fill(-1);
  const sums = new Float64Array(13 * faces.count);
  for (let q = 0; q < s.count; q++) {
    const f = faces.face[q]!;
    if (f < 0 || kind[f] !== 1) continue;
    faceOf[q] = f;
    const o = 13 * f;
    if (sums[o] === 0) {
      sums[o + 10] = s.x[q]!;
      sums[o + 11] = s.y[q]!;
      sums[o + 12] = s.z[q]!;
    }
    const dx = s.x[q]! - sums[o + 10]!;
    const dy = s.y[q]! - sums[o + 11]!;
    const dz = s.z[q]! - sums[o + 12]!;
    sums[o]!++;
    sums[o + 1]! += dx;
    sums[o + 2]! += dy;
    sums[o + 3]! += dz;
    sums[o + 4]! += dx * dx;
    sums[o + 5]! += dx * dy;
    sums[o + 6]! += dx * dz;
    sums[o + 7]! += dy * dy;
    sums[o + 8]! += dy * dz;
    sums[o + 9]! += dz * dz;
  }
  const plane = new Float64Array(4 * faces.count);
  const normal = new Float64Array(3);
  for (let f = 0; f < faces.count; f++) {
    const o = 13 * f;
    const n = sums[o]!;
    if (n < 3) continue;
    const mx = sums[o + 1]! / n;
    const my = sums[o + 2]! / n;
    const mz = sums[o + 3]! / n;
    planeOfSums(
      n,
      mx,
      my,
      mz,
      sums[o + 4]!,
      sums[o + 5]!,
      sums[o + 6]!,
      sums[o + 7]!,
      sums[o + 8]!,
      sums[o + 9]!,
      normal,
    );
    plane[4 * f] = normal[0]!;
    plane[4 * f + 1] = normal[1]!;
    plane[4 * f + 2] = normal[2]!;
    plane[4 * f + 3] =
      normal[0]! * (mx + sums[o + 10]!) + normal[1]! * (my + sums[o + 11]!) + normal[2]! * (mz + sums[o + 12]!);
  }
  return { faceOf, plane };
}

/** Candidates in grid order, coordinates relative to the grid origin, z in horizontal units. */
interface Slots {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  /** Grid cell of each slot. */
  cell: Int32Array;
  /** 1 when at least `minHeight` above ground (below: only eaves of a face). */
  roofHigh: Uint8Array;
  /** 1 when at least `EDGE_MIN_HEIGHT_M` above ground (roof edges may join the building). */
  edgeHigh: Uint8Array;
  /** 1 for the last or single return of its pulse (or without return numbers). */
  last: Uint8Array;
  /** 1 for the single return of its pulse (or without return numbers). */
  single: Uint8Array;
  count: number;
  grid: ReturnType<typeof buildPointGrid>;
  radius: number;
}

/** What the plane fits read of the slots (all a fit thread gets). */
export type FitSlots = Pick<Slots, 'x' | 'y' | 'z' | 'cell' | 'single' | 'count' | 'radius'> & {
  grid: Pick<Slots['grid'], 'cols' | 'rows' | 'start'>;
};

/** Per-slot plane fit: radius used, orthogonal RMS (-1 without a fit), unit normal. */
export interface PlaneFits {
  radius: Float32Array;
  rms: Float32Array;
  /** 1 when the fit had enough points to seed a face. */
  seedable: Uint8Array;
  nx: Float32Array;
  ny: Float32Array;
  nz: Float32Array;
}

/** Median points per square CRS unit over the occupied cells of a `cell`-sized grid. */
function medianDensity(
  x: Float64Array,
  y: Float64Array,
  count: number,
  b: { minX: number; minY: number; maxX: number; maxY: number },
  cell: number,
): number {
  const cols = Math.floor((b.maxX - b.minX) / cell) + 1;
  const rows = Math.floor((b.maxY - b.minY) / cell) + 1;
  const counts = new Int32Array(cols * rows);
  for (let i = 0; i < count; i++) {
    counts[Math.floor((y[i]! - b.minY) / cell) * cols + Math.floor((x[i]! - b.minX) / cell)]!++;
  }
  let occupied = 0;
  for (let k = 0; k < counts.length; k++) if (counts[k]! > 0) counts[occupied++] = counts[k]!;
  const sorted = counts.subarray(0, occupied).sort();
  return Math.max(1, sorted[occupied >> 1]!) / (cell * cell);
}

/**
 * Least-squares plane of every slot's neighbourhood: within its radius and
 * ±max(1 m, 1.2 × radius) in z (`metre`: one metre in CRS units). Small rough
 * neighbourhoods get the robust fit of `robustFit` when it is planar. With
 * `only`, just the slots it marks (1) are fitted: the others keep radius 0
 * and RMS -1 (see `fitSlot` to fit them later, with the same result).
 */
export function fitPlanes(
  s: FitSlots,
  metre: number,
  planarity: number,
  from = 0,
  to = s.count,
  only?: Uint8Array,
): PlaneFits {
  const length = to - from;
  const fits: PlaneFits = {
    radius: new Float32Array(length),
    rms: new Float32Array(length).fill(-1),
    seedable: new Uint8Array(length),
    nx: new Float32Array(length),
    ny: new Float32Array(length),
    nz: new Float32Array(length),
  };
  const scratch = fitScratch();
  for (let q = from; q < to; q++) {
    if (only && !only[q]) continue;
    fitSlot(s, metre, planarity, q, fits, q - from, scratch);
  }
  return fits;
}

/** Buffers of `fitSlot`, allocated once per caller. */
interface FitScratch {
  normal: Float64Array;
  near: Float64Array;
}

function fitScratch(): FitScratch {
  return { normal: new Float64Array(3), near: new Float64Array(3 * ROBUST_MAX_POINTS) };
}

/** The plane fit of slot `q` (see `fitPlanes`), written at index `f` of `fits`. */
function fitSlot(
  s: FitSlots,
  metre: number,
  planarity: number,
  q: number,
  fits: PlaneFits,
  f: number,
  scratch: FitScratch,
): void {
  const { x, y, z, cell, radius } = s;
  const { cols, rows, start } = s.grid;
  const { normal, near } = scratch;
  const maxRadius = MAX_RADIUS_M * metre * (1 - 1e-9);
  const k = cell[q]!;
  const row = (k / cols) | 0;
  const col = k - row * cols;
  const xq = x[q]!;
  const yq = y[q]!;
  const zq = z[q]!;
  // The point in cell units (the grid's cells are `radius` wide).
  const inv = 1 / radius;
  const uq = xq * inv;
  const vq = yq * inv;
  let r = radius;
  let rings = 1;
  for (;;) {
    const r2 = r * r;
    const zWindow = Math.max(metre, 1.2 * r);
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    let sxx = 0;
    let syy = 0;
    let szz = 0;
    let sxy = 0;
    let sxz = 0;
    let syz = 0;
    const c0 = col - rings < 0 ? 0 : col - rings;
    const c1 = col + rings >= cols ? cols - 1 : col + rings;
    const r1 = row + rings >= rows ? rows - 1 : row + rings;
    const reach = r * inv;
    for (let rr = row - rings < 0 ? 0 : row - rings; rr <= r1; rr++) {
      // Only the cells of the row the disc reaches (a margin covers rounding): the others hold no neighbour.
      const dv = (rr > vq ? rr - vq : vq - rr - 1) - SPAN_MARGIN;
      if (dv > reach) continue;
      const half = (dv > 0 ? Math.sqrt(Math.max(0, reach * reach - dv * dv)) : reach) + SPAN_MARGIN;
      const end = start[rr * cols + Math.min(c1, Math.floor(uq + half)) + 1]!;
      for (let p = start[rr * cols + Math.max(c0, Math.floor(uq - half))]!; p < end; p++) {
        const dz = z[p]! - zq;
        const dx = x[p]! - xq;
        const dy = y[p]! - yq;
        // 1 inside the neighbourhood, 0 outside: no branch to mispredict (canopy is in and out at random);
        // an outside point adds zeros, so the sums are the ones of the inside points alone.
        const inside = +(dz <= zWindow) & +(dz >= -zWindow) & +(dx * dx + dy * dy <= r2);
        const mx = inside * dx;
        const my = inside * dy;
        const mz = inside * dz;
        n += inside;
        sx += mx;
        sy += my;
        sz += mz;
        sxx += mx * dx;
        syy += my * dy;
        szz += mz * dz;
        sxy += mx * dy;
        sxz += mx * dz;
        syz += my * dz;
      }
    }
    if (n < SPARSE_NEIGHBOURS && rings === 1) {
      r = radius * SPARSE_RADIUS_FACTOR;
      rings = 2;
      continue;
    }
    fits.radius[f] = r;
    if (n >= MIN_FIT_POINTS) {
      const mx = sx / n;
      const my = sy / n;
      const mz = sz / n;
      const variance = planeOfSums(n, mx, my, mz, sxx, sxy, sxz, syy, syz, szz, normal);
      fits.rms[f] = Math.sqrt(variance);
      fits.nx[f] = normal[0]!;
      fits.ny[f] = normal[1]!;
      fits.nz[f] = normal[2]!;
      fits.seedable[f] = n >= MIN_SEED_POINTS ? 1 : 0;
      if (
        fits.rms[f]! >= planarity &&
        n >= MIN_SEED_POINTS &&
        n <= ROBUST_MAX_POINTS &&
        r >= maxRadius &&
        s.single[q]
      ) {
        // The same neighbours again, relative to the point.
        let m = 0;
        let multi = 0;
        for (let rr = row - rings < 0 ? 0 : row - rings; rr <= r1; rr++) {
          const end = start[rr * cols + c1 + 1]!;
          for (let p = start[rr * cols + c0]!; p < end; p++) {
            if (p === q) continue;
            const dz = z[p]! - zq;
            if (dz > zWindow || dz < -zWindow) continue;
            const dx = x[p]! - xq;
            const dy = y[p]! - yq;
            if (dx * dx + dy * dy > r2) continue;
            if (!s.single[p]) {
              multi++;
              continue;
            }
            near[m++] = dx;
            near[m++] = dy;
            near[m++] = dz;
          }
        }
        const v = multi > ROBUST_MAX_MULTI * n ? -1 : robustFit(near, m / 3, planarity, normal);
        if (v >= 0) {
          fits.rms[f] = Math.sqrt(v);
          fits.nx[f] = normal[0]!;
          fits.ny[f] = normal[1]!;
          fits.nz[f] = normal[2]!;
        }
      }
    }
    return;
  }
}

/**
 * Plane through the origin (the fitted point) and two of its `n` neighbours
 * (`near`: x, y, z relative to it) with most neighbours within `planarity`;
 * when it holds `MIN_SEED_POINTS` with the point, the least-squares plane of
 * those: its variance (-1 when none qualifies or it is not below
 * `planarity`²) and upward unit normal in `normal`.
 */
function robustFit(near: Float64Array, n: number, planarity: number, normal: Float64Array): number {
  let best = 0;
  let bx = 0;
  let by = 0;
  let bz = 0;
  for (let a = 0; a < n; a++) {
    const ax = near[3 * a]!;
    const ay = near[3 * a + 1]!;
    const az = near[3 * a + 2]!;
    const la = ax * ax + ay * ay + az * az;
    for (let b = a + 1; b < n; b++) {
      const cx = near[3 * b]!;
      const cy = near[3 * b + 1]!;
      const cz = near[3 * b + 2]!;
      const ux = ay * cz - az * cy;
      const uy = az * cx - ax * cz;
      const uz = ax * cy - ay * cx;
      const uu = ux * ux + uy * uy + uz * uz;
      // Nearly collinear with the point (under ~6°): no plane.
      if (uu < 0.01 * la * (cx * cx + cy * cy + cz * cz)) continue;
      const inv = 1 / Math.sqrt(uu);
      let inliers = 0;
      for (let j = 0; j < n; j++) {
        const d = (ux * near[3 * j]! + uy * near[3 * j + 1]! + uz * near[3 * j + 2]!) * inv;
        if (d <= planarity && d >= -planarity) inliers++;
      }
      if (inliers > best) {
        best = inliers;
        bx = ux * inv;
        by = uy * inv;
        bz = uz * inv;
      }
    }
  }
  if (best + 1 < MIN_SEED_POINTS || best < ROBUST_INLIERS * n) return -1;
  let c = 1;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let sxx = 0;
  let syy = 0;
  let szz = 0;
  let sxy = 0;
  let sxz = 0;
  let syz = 0;
  for (let j = 0; j < n; j++) {
    const dx = near[3 * j]!;
    const dy = near[3 * j + 1]!;
    const dz = near[3 * j + 2]!;
    const d = bx * dx + by * dy + bz * dz;
    if (d > planarity || d < -planarity) continue;
    c++;
    sx += dx;
    sy += dy;
    sz += dz;
    sxx += dx * dx;
    syy += dy * dy;
    szz += dz * dz;
    sxy += dx * dy;
    sxz += dx * dz;
    syz += dy * dz;
  }
  const mx = sx / c;
  const my = sy / c;
  const mz = sz / c;
  const v = planeOfSums(c, mx, my, mz, sxx, sxy, sxz, syy, syz, szz, normal);
  return v < planarity * planarity ? v : -1;
}

/** Roof faces: face index of every slot (-1 for none) and per-face figures. */
interface Faces {
  face: Int32Array;
  count: number;
  size: Int32Array;
  nonLast: Int32Array;
  /** Cells of a `footprintCell` grid the face touches (up to what the smallest face needs). */
  footprint: Int32Array;
  /** |z| of the face's normal (1 flat, 0 vertical). */
  normalZ: Float64Array;
  /** Neighbours within the tolerance band and within the band just outside it, as scanned. */
  inBand: Float64Array;
  nearBand: Float64Array;
  /** RMS distance of the face's points to its final least-squares plane. */
  rms: Float64Array;
}

/**
 * Region growing from the most planar seeds (RMS below `planarity`, in
 * horizontal units): neighbours within 2 × `planarity` of the face's plane
 * join it; smooth ones carry the growth when their normal agrees, rough ones
 * when they sit on the plane among neighbours that mostly do too.
 */
function growFaces(
  s: Slots,
  fit: PlaneFits,
  planarity: number,
  metre: number,
  footprintCell: number,
  footprintCells: number,
): Faces {
  const { x, y, z, cell, last, count, radius } = s;
  const { cols, rows, start } = s.grid;
  const { rms } = fit;
  const tolerance = 2 * planarity;
  const carry = CARRY_SHARE * tolerance;
  const near = NEAR_BAND * tolerance;
  const cosAngle = Math.cos((NORMAL_ANGLE_DEG * Math.PI) / 180);
  const inv = 1 / radius;
  // Seeds by increasing RMS: a counting sort over 256 RMS bins.
  const bins = 256;
  const binOf = (v: number) => Math.min(bins - 1, Math.floor((v / planarity) * bins));
  const binStart = new Int32Array(bins + 1);
  let seedCount = 0;
  for (let q = 0; q < count; q++) {
    const v = rms[q]!;
    if (v >= 0 && v < planarity && last[q] && s.roofHigh[q] && fit.seedable[q]) {
      binStart[binOf(v) + 1]!++;
      seedCount++;
    }
  }
  for (let k = 0; k < bins; k++) binStart[k + 1]! += binStart[k]!;
  const seeds = new Int32Array(seedCount);
  const fill = binStart.slice(0, bins);
  for (let q = 0; q < count; q++) {
    const v = rms[q]!;
    if (v >= 0 && v < planarity && last[q] && s.roofHigh[q] && fit.seedable[q]) seeds[fill[binOf(v)]!++] = q;
  }

  const faces: Faces = {
    face: new Int32Array(count).fill(-1),
    count: 0,
    size: new Int32Array(seedCount),
    nonLast: new Int32Array(seedCount),
    footprint: new Int32Array(seedCount),
    normalZ: new Float64Array(seedCount),
    inBand: new Float64Array(seedCount),
    nearBand: new Float64Array(seedCount),
    rms: new Float64Array(seedCount),
  };
  const face = faces.face;
  const stack = new Int32Array(count);
  const normal = new Float64Array(3);
  const scratch = fitScratch();
  const footprintCols = Math.floor((s.grid.cols * radius) / footprintCell) + 1;
  // Footprint cells the current face touched, counted up to `footprintCells` (a dozen at most at 0.5 m):
  // their keys in a short list, searched in place of a set or a stamp per cell of the extent.
  const touchedKeys = new Float64Array(Math.max(1, footprintCells));
  let touched = 0;
  /** Counts the footprint cell `key` for the current face when not counted yet (and fewer than `footprintCells` are). */
  const touch = (key: number) => {
    for (let t = 0; t < touched; t++) if (touchedKeys[t] === key) return;
    touchedKeys[touched++] = key;
  };
  for (let si = 0; si < seedCount; si++) {
    const seed = seeds[si]!;
    if (face[seed] !== -1) continue;
    const id = faces.count++;
    // Sums relative to the seed; the plane is n·(p - seed) = w.
    const ox = x[seed]!;
    const oy = y[seed]!;
    const oz = z[seed]!;
    let nx = fit.nx[seed]!;
    let ny = fit.ny[seed]!;
    let nz = fit.nz[seed]!;
    let w = 0;
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    let sxx = 0;
    let syy = 0;
    let szz = 0;
    let sxy = 0;
    let sxz = 0;
    let syz = 0;
    let nonLast = 0;
    let inBand = 0;
    let nearBand = 0;
    let refitAt = 8;
    let top = 0;
    face[seed] = id;
    stack[top++] = seed;
    n = 1;
    touched = 0;
    touch(Math.floor(y[seed]! / footprintCell) * footprintCols + Math.floor(x[seed]! / footprintCell));
    while (top > 0) {
      let p = stack[--top]!;
      const rough = p < 0;
      if (rough) p = ~p;
      const xp = x[p]!;
      const yp = y[p]!;
      const rp = fit.radius[p]!;
      const r2 = rp * rp;
      // The point and its radius in cell units, for the cells its disc reaches (see `fitSlot`).
      const up = xp * inv;
      const vp = yp * inv;
      const reach = rp * inv;
      const rings = rp > radius * 1.0001 ? 2 : 1;
      const k = cell[p]!;
      const row = (k / cols) | 0;
      const col = k - row * cols;
      const c0 = col - rings < 0 ? 0 : col - rings;
      const c1 = col + rings >= cols ? cols - 1 : col + rings;
      const rLast = row + rings >= rows ? rows - 1 : row + rings;
      const rFirst = row - rings < 0 ? 0 : row - rings;
      if (rough) {
        // Carry on only where most neighbours lie on the plane: not from a slice through foliage.
        const zp = z[p]!;
        const zWindow = Math.max(metre, 1.2 * rp);
        let all = 0;
        let on = 0;
        for (let rr = rFirst; rr <= rLast; rr++) {
          const dv = (rr > vp ? rr - vp : vp - rr - 1) - SPAN_MARGIN;
          if (dv > reach) continue;
          const half = (dv > 0 ? Math.sqrt(Math.max(0, reach * reach - dv * dv)) : reach) + SPAN_MARGIN;
          const end = start[rr * cols + Math.min(c1, Math.floor(up + half)) + 1]!;
          for (let j = start[rr * cols + Math.max(c0, Math.floor(up - half))]!; j < end; j++) {
            const dz = z[j]! - zp;
            if (dz > zWindow || dz < -zWindow) continue;
            const dx = x[j]! - xp;
            const dy = y[j]! - yp;
            if (dx * dx + dy * dy > r2) continue;
            all++;
            const d = nx * (x[j]! - ox) + ny * (y[j]! - oy) + nz * (z[j]! - oz) - w;
            if (d <= tolerance && d >= -tolerance) on++;
          }
        }
        if (on < CARRY_INLIERS * all) continue;
      }
      for (let rr = rFirst; rr <= rLast; rr++) {
        const dv = (rr > vp ? rr - vp : vp - rr - 1) - SPAN_MARGIN;
        if (dv > reach) continue;
        const half = (dv > 0 ? Math.sqrt(Math.max(0, reach * reach - dv * dv)) : reach) + SPAN_MARGIN;
        const end = start[rr * cols + Math.min(c1, Math.floor(up + half)) + 1]!;
        for (let j = start[rr * cols + Math.max(c0, Math.floor(up - half))]!; j < end; j++) {
          const dx = x[j]! - xp;
          const dy = y[j]! - yp;
          const d = nx * (x[j]! - ox) + ny * (y[j]! - oy) + nz * (z[j]! - oz) - w;
          // Counted without branches (in canopy, points fall in and out of the disc and the bands at random).
          const inside = +(dx * dx + dy * dy <= r2);
          const onPlane = inside & +(d <= tolerance) & +(d >= -tolerance);
          nearBand += (inside - onPlane) & +(d < near) & +(d > -near);
          if (onPlane === 0) continue;
          inBand++;
          if (face[j] !== -1) continue;
          // Slots that cannot seed are fitted when a face first reaches them (see `seedSlots`).
          if (fit.radius[j] === 0) fitSlot(s, metre, planarity, j, fit, j, scratch);
          const rj = rms[j]!;
          const smooth = rj >= 0 && rj < planarity;
          if (smooth && Math.abs(fit.nx[j]! * nx + fit.ny[j]! * ny + fit.nz[j]! * nz) < cosAngle) continue;
          face[j] = id;
          const ex = x[j]! - ox;
          const ey = y[j]! - oy;
          const ez = z[j]! - oz;
          n++;
          sx += ex;
          sy += ey;
          sz += ez;
          sxx += ex * ex;
          syy += ey * ey;
          szz += ez * ez;
          sxy += ex * ey;
          sxz += ex * ez;
          syz += ey * ez;
          if (touched < footprintCells) {
            touch(Math.floor(y[j]! / footprintCell) * footprintCols + Math.floor(x[j]! / footprintCell));
          }
          if (!last[j]) nonLast++;
          if (smooth) stack[top++] = j;
          else if (n >= 8 && last[j] && d <= carry && d >= -carry) stack[top++] = ~j;
        }
      }
      if (n >= refitAt) {
        refitAt = 2 * n;
        const mx = sx / n;
        const my = sy / n;
        const mz = sz / n;
        planeOfSums(n, mx, my, mz, sxx, sxy, sxz, syy, syz, szz, normal);
        nx = normal[0]!;
        ny = normal[1]!;
        nz = normal[2]!;
        w = nx * mx + ny * my + nz * mz;
      }
    }
    const mx = sx / n;
    const my = sy / n;
    const mz = sz / n;
    faces.rms[id] = Math.sqrt(planeOfSums(n, mx, my, mz, sxx, sxy, sxz, syy, syz, szz, normal));
    faces.size[id] = n;
    faces.nonLast[id] = nonLast;
    faces.footprint[id] = touched;
    faces.normalZ[id] = nz;
    faces.inBand[id] = inBand;
    faces.nearBand[id] = nearBand;
  }
  return faces;
}

/** 1 for faces kept as roof, 2 for walls, 0 for the rest. */
function acceptFaces(faces: Faces, minFootprint: number): Uint8Array {
  const kind = new Uint8Array(faces.count);
  const wallZ = Math.cos((WALL_SLOPE_DEG * Math.PI) / 180);
  for (let f = 0; f < faces.count; f++) {
    const n = faces.size[f]!;
    if (n < MIN_FACE_POINTS || faces.footprint[f]! < minFootprint) continue;
    if (faces.nonLast[f]! > MAX_NON_LAST * n) continue;
    if (faces.nearBand[f]! > MAX_NEAR_RATIO * faces.inBand[f]!) continue;
    kind[f] = faces.normalZ[f]! < wallZ ? 2 : 1;
  }
  return kind;
}

/** Point-weighted median RMS of the accepted faces (the cloud's roof noise); 0 without faces. */
function roofNoise(faces: Faces, kind: Uint8Array): number {
  const order: number[] = [];
  let total = 0;
  for (let f = 0; f < faces.count; f++) {
    if (kind[f] !== 1) continue;
    order.push(f);
    total += faces.size[f]!;
  }
  order.sort((a, b) => faces.rms[a]! - faces.rms[b]!);
  let acc = 0;
  for (const f of order) {
    acc += faces.size[f]!;
    if (2 * acc >= total) return faces.rms[f]!;
  }
  return 0;
}

/**
 * Building slots: grid cells where kept faces hold `ROOF_CELL_SHARE` of the
 * points above `minHeight`, 8-connected into groups with at least
 * `minArea` (square CRS units) of roof (wall cells join, never count) that
 * do not look like canopy (see `ROUGH_FACTOR`, `SPARSE_NEAR_RATIO`);
 * within them, face points and the other points above `minHeight` up to
 * `fillAbove` over the cell's highest face point.
 */
function buildingSlots(
  s: Slots,
  faces: Faces,
  kind: Uint8Array,
  minArea: number,
  sparse: boolean,
  fillAbove: number,
  metre: number,
): Uint8Array {
  const { cols, rows, start } = s.grid;
  const face = faces.face;
  const cells = cols * rows;
  const roof = new Uint8Array(cells);
  const fillTop = new Float64Array(cells);
  for (let k = 0; k < cells; k++) {
    let onFace = 0;
    let onWall = 0;
    let other = 0;
    let highest = Number.NEGATIVE_INFINITY;
    for (let q = start[k]!; q < start[k + 1]!; q++) {
      const f = face[q]!;
      const t = f >= 0 ? kind[f]! : 0;
      if (t > 0) {
        onFace++;
        if (t === 2) onWall++;
        if (s.z[q]! > highest) highest = s.z[q]!;
      } else if (s.roofHigh[q]) other++;
    }
    if (onFace > 0 && onFace >= ROOF_CELL_SHARE * (onFace + other)) roof[k] = 2 * onWall > onFace ? 2 : 1;
    fillTop[k] = highest + fillAbove;
  }
  // Sparse clouds: no RMS test (see `CANOPY_TEST_POINTS`), the near band alone on small groups (`SPARSE_NEAR_RATIO`).
  const maxRms = sparse ? Number.POSITIVE_INFINITY : ROUGH_FACTOR * roofNoise(faces, kind);
  const out = new Uint8Array(s.count);
  const seen = new Uint8Array(cells);
  const minCells = minArea / (s.radius * s.radius);
  const untestedMinCells = Math.max(minArea, UNTESTED_MIN_AREA_M2 * metre * metre) / (s.radius * s.radius);
  const stack: number[] = [];
  const members: number[] = [];
  const groupFaces = new Set<number>();
  for (let k0 = 0; k0 < cells; k0++) {
    if (!roof[k0] || seen[k0]) continue;
    members.length = 0;
    seen[k0] = 1;
    stack.push(k0);
    let roofCells = 0;
    while (stack.length) {
      const k = stack.pop()!;
      members.push(k);
      if (roof[k] === 1) roofCells++;
      const r = (k / cols) | 0;
      const c = k - r * cols;
      for (let rr = Math.max(0, r - 1); rr <= Math.min(rows - 1, r + 1); rr++) {
        for (let cc = Math.max(0, c - 1); cc <= Math.min(cols - 1, c + 1); cc++) {
          const kk = rr * cols + cc;
          if (roof[kk] && !seen[kk]) {
            seen[kk] = 1;
            stack.push(kk);
          }
        }
      }
    }
    if (roofCells < minCells) continue;
    // Canopy test over the group's roof faces (walls left out).
    groupFaces.clear();
    let points = 0;
    let squares = 0;
    for (const k of members) {
      for (let q = start[k]!; q < start[k + 1]!; q++) {
        const f = face[q]!;
        if (f < 0 || kind[f] !== 1) continue;
        points++;
        squares += faces.rms[f]! * faces.rms[f]!;
        groupFaces.add(f);
      }
    }
    let inBand = 0;
    let nearBand = 0;
    for (const f of groupFaces) {
      inBand += faces.inBand[f]!;
      nearBand += faces.nearBand[f]!;
    }
    if (points < CANOPY_TEST_POINTS && roofCells < untestedMinCells) continue;
    if (points >= CANOPY_TEST_POINTS && Math.sqrt(squares / points) > maxRms && nearBand > GROUP_NEAR_RATIO * inBand)
      continue;
    if (sparse && points < CANOPY_TEST_POINTS && nearBand > SPARSE_NEAR_RATIO * inBand) continue;
    for (const k of members) {
      for (let q = start[k]!; q < start[k + 1]!; q++) {
        const f = face[q]!;
        if ((f >= 0 && kind[f]! > 0) || (s.roofHigh[q] && s.z[q]! <= fillTop[k]!)) out[q] = 1;
      }
    }
  }
  return out;
}
