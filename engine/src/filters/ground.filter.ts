import Delaunator from 'delaunator';
import { z } from 'zod';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { DisjointSets } from '../core/disjoint-sets.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { acceptStepFaces, densifyGround } from './densify.js';
import { acceptEmbankments } from './ground-embankments.js';
import { groundModel } from './hag.filter.js';
import { bilinear, bilinearAt, gradient, inpaint, Morphology } from './morphology.js';
import { extent, meanSpacing } from './point-grid.js';
import { type PointGraph, pointGraph, roughness, smoothSegments } from './surface.js';

/**
 * Options of the ground filter (`filters.smrf`): a Simple Morphological Filter
 * (Pingel, Clarke & McBride 2013). Lengths are in metres and converted to the
 * CRS unit with `unitToMetre`.
 */
export const groundOptionsSchema = z.object({
  /** Cell size of the minimum surface, metres. */
  cell: z.number().min(0.1).max(10).default(1),
  /** Terrain slope tolerated by the progressive opening (rise over run). */
  slope: z.number().min(0.01).max(5).default(0.15),
  /** Largest opening window radius, metres: the widest object removed (buildings). */
  window: z.number().min(1).max(500).default(18),
  /** Elevation threshold of the final ground test, metres. */
  threshold: z.number().min(0.05).max(10).default(0.5),
  /** Extra threshold per unit of local terrain slope, metres. */
  scalar: z.number().min(0).max(10).default(1.25),
  /**
   * Densification (Axelsson's progressive TIN): a point joins the ground when
   * every angle between a TIN facet and the lines to its vertices is at most
   * this, degrees; 0 disables the densification. It runs on clouds too
   * sparse for the envelope refinement (see `envelopeCell`).
   */
  densifyAngle: z.number().min(0).max(45).default(20),
  /** Densification: angle allowed where the cloud is locally smooth (terrain, banks), degrees. */
  smoothAngle: z.number().min(0).max(60).default(35),
  /**
   * Densification: a point is smooth when its plane-fit RMS among its TIN
   * neighbours is at most this, metres, at a point spacing of 1 m or less;
   * times the spacing in metres on sparser clouds, whose neighbourhoods span
   * more relief.
   */
  smoothRoughness: z.number().min(0).max(2).default(0.15),
  /** Smooth segments: height step joining neighbours on flat ground, metres; 0 disables the segment check. */
  segmentStep: z.number().min(0).max(5).default(0.5),
  /** Smooth segments: extra step per metre between neighbours (rise over run). */
  segmentSlope: z.number().min(0).max(5).default(0.3),
  /** Smooth segments: longest TIN edge joining neighbours, metres (never under 3 point spacings). */
  segmentEdge: z.number().min(0.5).max(50).default(4),
  /** Smooth segments with at least this many points, mostly objects and elevated, lose their ground points. */
  segmentMinPoints: z.number().int().min(1).max(100000).default(1),
  /** A segment is elevated when, along its outline, neighbours a step lower outnumber those a step higher this many to one. */
  segmentElevated: z.number().min(0).max(100).default(2),
  /** Level growth: height step to a ground neighbour on flat ground, metres; 0 disables the growth. */
  levelStep: z.number().min(0).max(5).default(0.1),
  /** Level growth: extra step per metre to the neighbour (rise over run). */
  levelSlope: z.number().min(0).max(5).default(0.1),
  /** Level growth: longest TIN edge followed, metres (never under 1.5 point spacings). */
  levelEdge: z.number().min(0.5).max(50).default(4),
  /** Level growth: only points at least this far above the provisional surface, metres. */
  levelAbove: z.number().min(0).max(50).default(2),
  /** Level and slope growth: a grown patch whose outline drops (see `levelDropSlope`) this many times more often than it meets level ground is a deck (bridge) and leaves the ground; 0 keeps all. */
  levelDrop: z.number().min(0).max(100).default(2),
  /** Slope growth: height step from the plane continued from a ground neighbour, metres; 0 disables it. */
  trendStep: z.number().min(0).max(5).default(0.05),
  /** Slope growth: extra step per metre to the neighbour. */
  trendSlope: z.number().min(0).max(5).default(0.05),
  /** Slope growth: only points at least this far above the provisional surface, metres. */
  trendAbove: z.number().min(0).max(50).default(1),
  /** Level and slope growth: an outline neighbour is a drop when more than 1 m plus this per metre lower (rise over run). */
  levelDropSlope: z.number().min(0).max(10).default(0.5),
  /**
   * Embankments (sparse clouds, with the densification): a smooth raised
   * surface the steps above left out that is at least this long, metres,
   * `embankmentElongation` times longer than wide, at least
   * `embankmentWidth` wide, falling from its long axis to its sides and with
   * flanks sloping down to the ground rather than walls, is a dam or an
   * earthwork: ground (see ground-embankments.ts); 0 disables it.
   */
  embankmentLength: z.number().min(0).max(1000).default(60),
  /** Embankments: smallest ratio of length to width. */
  embankmentElongation: z.number().min(1).max(100).default(4),
  /** Embankments: narrowest width, metres (a crest and two flanks; hedges and tree rows are narrower). */
  embankmentWidth: z.number().min(0).max(100).default(8),
  /** Embankments: least fall from the long axis to the sides, rise over run (flat roofs and decks do not fall). */
  embankmentCrossFall: z.number().min(0).max(10).default(0.25),
  /** Embankments: steepest median rise over run from the surface down to its ground neighbours (walls are steeper). */
  embankmentSideSlope: z.number().min(0).max(20).default(2),
  /** Raised-point check: a ground point this far above the plane of its ground TIN neighbours leaves the ground, metres; 0 disables it. */
  raisedStep: z.number().min(0).max(5).default(0.3),
  /** Raised-point check: extra height per metre of RMS residual of that plane. */
  raisedRoughness: z.number().min(0).max(10).default(1),
  /** Raised-point check: extra height per unit of that plane's slope, metres. */
  raisedSlope: z.number().min(0).max(20).default(2),
  /**
   * Step faces: last, a point inside a facet of the ground TIN steeper than
   * this (rise over run), between the facet's lowest and highest vertex, is
   * on the face of a terrain step (a quarry wall, a cliff) whose foot and top
   * are ground: ground too; 0 disables it. Like the densification, it runs
   * where the envelope refinement does not (see `envelopeCell`).
   */
  faceSlope: z.number().min(0).max(100).default(1),
  /** Step faces: a face point lies at least this far above the step's foot and below its top, metres. */
  faceMargin: z.number().min(0).max(10).default(0.3),
  /** Step faces: longest horizontal edge of a face's facet, in filter cells (the point spacing, at least `cell`). */
  faceEdge: z.number().min(1).max(100).default(4),
  /** Densification: largest distance above the TIN facet, metres. */
  densifyDistance: z.number().min(0.05).max(5).default(1.2),
  /** Densification passes (each rebuilds the TIN from the ground found so far). */
  densifyPasses: z.number().int().min(0).max(20).default(6),
  /**
   * Refinement: the lowest SMRF ground point of every cell of this size
   * (metres) seeds a lower-envelope TIN of the terrain; 0 disables it.
   */
  envelopeCell: z.number().min(0).max(20).default(2),
  /** Refinement passes; each halves the envelope cell. */
  envelopePasses: z.number().int().min(0).max(4).default(2),
  /** Refinement: points at most this far above the envelope TIN are ground, metres. */
  offset: z.number().min(0.01).max(2).default(0.15),
  /** Refinement: extra tolerance per unit of envelope slope (the TIN cuts convex breaks), metres. */
  offsetSlopeScalar: z.number().min(0).max(5).default(0.2),
  /** Mean point spacing in CRS units; measured on the cloud when absent (tiles pass the whole cloud's). */
  pointSpacing: z.number().positive().optional(),
  /** Horizontal CRS unit in metres (0.3048 for feet). */
  unitToMetre: z.number().positive().default(1),
  /** Vertical unit in metres. */
  verticalUnitToMetre: z.number().positive().optional(),
});
export type GroundOptions = z.input<typeof groundOptionsSchema>;

/** Most passes of the level and slope growth (each adds the points next to the last ones added). */
const GROWTH_PASSES = 10;

/** The provisional bare-earth surface the filter built, reusable for HAG. */
export interface GroundSurface {
  surface: Float32Array;
  cols: number;
  rows: number;
  minX: number;
  minY: number;
  cell: number;
}

/**
 * Marks ground points (SMRF). `exclude[i] = 1` leaves a point out (noise).
 * Returns 1 for ground, 0 otherwise, plus the provisional surface.
 *
 * @example
 * const { ground } = groundFilter(cloud, noiseMask);
 */
export function groundFilter(
  cloud: PointChunk,
  exclude: Uint8Array | null,
  options: GroundOptions = {},
  context: StepContext = {},
): { ground: Uint8Array; surface: GroundSurface } {
  const o = groundOptionsSchema.parse(options);
  const { x, y, z: zs, count } = cloud;
  const ground = new Uint8Array(count);
  const hu = o.unitToMetre;
  const vu = o.verticalUnitToMetre ?? hu;
  if (count === 0) {
    return { ground, surface: { surface: new Float32Array(1), cols: 1, rows: 1, minX: 0, minY: 0, cell: o.cell } };
  }
  const b = extent(x, y, count);
  if (!Number.isFinite(b.minX)) throw new InvalidInput('points', 'coordinates are not finite');
  // Sparse clouds: cells never smaller than the mean point spacing.
  const spacing = o.pointSpacing ?? meanSpacing(b, count);
  const cell = Math.max(o.cell / hu, spacing);
  const cellMetres = cell * hu;
  const { cols, rows, cellOf } = pointCells(x, y, count, cell, b, exclude, 0);
  // 1. Minimum surface (cells in input order: the lowest point of a cell is that of a pass over its points).
  const low = new Float64Array(cols * rows).fill(Number.POSITIVE_INFINITY);
  const filled = new Uint8Array(cols * rows);
  for (let i = 0; i < count; i++) {
    const k = cellOf[i]!;
    if (k < 0) continue;
    filled[k] = 1;
    const v = zs[i]!;
    if (v < low[k]!) low[k] = v;
  }
  const zmin = new Float32Array(cols * rows).fill(Number.NaN);
  for (let k = 0; k < cols * rows; k++) if (low[k] !== Number.POSITIVE_INFINITY) zmin[k] = low[k]!;
  inpaint(zmin, cols, rows);
  context.progress?.(0.2, 'ground');
  // 2. Progressive opening: cells lifted above the opened surface by more than slope × window are objects.
  const isObject = new Uint8Array(cols * rows);
  const maxRadius = Math.max(1, Math.ceil(o.window / cellMetres));
  let last: Float32Array = zmin;
  // Two surfaces in turn: each opening reads the last one and writes the other.
  const morphology = new Morphology(cols, rows, maxRadius);
  const opened = [new Float32Array(cols * rows), new Float32Array(cols * rows)];
  for (let r = 1; r <= maxRadius; r++) {
    if (context.signal?.aborted) throw new Cancelled();
    const cur = morphology.open(last, r, opened[r % 2]!);
    const t = (o.slope * r * cellMetres) / vu;
    for (let k = 0; k < cur.length; k++) if (last[k]! - cur[k]! > t) isObject[k] = 1;
    last = cur;
  }
  context.progress?.(0.6, 'ground');
  // 3. Provisional DTM from the non-object minimum cells.
  const surface = new Float32Array(cols * rows);
  for (let k = 0; k < surface.length; k++) {
    surface[k] = isObject[k] || !filled[k] ? Number.NaN : zmin[k]!;
  }
  inpaint(surface, cols, rows);
  // 4. Points near the provisional surface are ground; steeper terrain tolerates more.
  const grad = gradient(surface, cols, rows, cell);
  const threshold = o.threshold / vu;
  // grad is in vertical units per horizontal unit; the tolerance is in vertical units.
  const scalar = o.scalar / hu;
  for (let i = 0; i < count; i++) {
    if (exclude && exclude[i] !== 0) continue;
    const zi = bilinear(surface, cols, rows, b.minX, b.minY, cell, x[i]!, y[i]!);
    if (Number.isNaN(zi)) continue;
    const k = cellOf[i]!;
    const s = k >= 0 ? grad[k]! : 0;
    if (Math.abs(zs[i]! - zi) <= threshold + scalar * s) ground[i] = 1;
  }
  context.progress?.(0.75, 'ground');
  // Each pass halves the seed cell so the TIN follows convex breaks (bank tops) the coarse one cuts.
  // A sparse cloud (thinned, or a few points per 10 m²) has no lower envelope to
  // follow: seeds two spacings apart flatten every ridge between them, so the
  // refinement runs only where its first cell holds a few points. There, instead,
  // the TIN densification grows the ground up the convex breaks the opening cut
  // (on dense clouds the envelope TIN follows them, and densifying first would
  // seed it with low objects).
  const envelopeFits = o.envelopeCell > 0 && o.envelopeCell / hu >= 2 * spacing;
  if (!envelopeFits && o.densifyAngle > 0 && o.densifyPasses > 0) {
    const graph = pointGraph(cloud, exclude, cell);
    const rough = roughness(cloud, graph);
    densifyGround(cloud, exclude, ground, {
      maxAngle: (o.densifyAngle * Math.PI) / 180,
      smoothAngle: (o.smoothAngle * Math.PI) / 180,
      // Relief within a point's TIN neighbourhood grows with its size: the threshold holds for 1 m spacing.
      smoothRoughness: (o.smoothRoughness * Math.max(1, spacing * hu)) / vu,
      roughness: rough,
      maxDistance: o.densifyDistance / vu,
      iterations: o.densifyPasses,
      cell,
    });
    // Points (not excluded) at least `metres` above the provisional surface.
    const above = (metres: number) => {
      const out = new Uint8Array(count);
      for (let i = 0; i < count; i++) {
        if (exclude && exclude[i] !== 0) continue;
        const zi = bilinear(surface, cols, rows, b.minX, b.minY, cell, x[i]!, y[i]!);
        if (zs[i]! - zi >= metres / vu) out[i] = 1;
      }
      return out;
    };
    if (o.segmentStep > 0) {
      const segment = smoothSegments(cloud, graph, {
        step: o.segmentStep / vu,
        stepSlope: (o.segmentSlope * hu) / vu,
        maxEdge: Math.max(o.segmentEdge / hu, 3 * spacing),
      });
      dropObjectSegments(cloud, graph, segment, ground, o.segmentStep / vu, o.segmentMinPoints, o.segmentElevated);
    }
    // Terrain steps (terraces, banks) the surfaces above cut across: ground grows from the ground
    // found, level first, then along the slope, among points well above the provisional surface.
    const growth = {
      maxEdge: Math.max(o.levelEdge / hu, 1.5 * spacing),
      passes: GROWTH_PASSES,
      deckRatio: o.levelDrop,
      drop: 1 / vu,
      dropSlope: (o.levelDropSlope * hu) / vu,
    };
    if (o.levelStep > 0) {
      growGround(above(o.levelAbove), cloud, graph, ground, {
        ...growth,
        step: o.levelStep / vu,
        slope: (o.levelSlope * hu) / vu,
        alongSlope: false,
      });
    }
    if (o.trendStep > 0) {
      growGround(above(o.trendAbove), cloud, graph, ground, {
        ...growth,
        step: o.trendStep / vu,
        slope: (o.trendSlope * hu) / vu,
        alongSlope: true,
      });
    }
    if (o.embankmentLength > 0) {
      const before = ground.slice();
      const banked = acceptEmbankments(cloud, exclude, graph, ground, {
        step: o.segmentStep / vu,
        stepSlope: (o.segmentSlope * hu) / vu,
        maxEdge: Math.max(o.segmentEdge / hu, 3 * spacing),
        minLength: o.embankmentLength / hu,
        elongation: o.embankmentElongation,
        minWidth: o.embankmentWidth / hu,
        minCrossFall: (o.embankmentCrossFall * hu) / vu,
        maxSideSlope: (o.embankmentSideSlope * hu) / vu,
      });
      // Bushes and fences on a crest: the raised-point check below fits wider planes,
      // which span both flanks of a narrow crest and stand far below it; here the plane
      // of the direct neighbours, on the embankment's points only.
      if (banked > 0 && o.raisedStep > 0) {
        const banks = ground.map((g, i) => (g && !before[i] ? 1 : 0));
        dropRaisedGround(cloud, ground, o.raisedStep / vu, o.raisedRoughness, (o.raisedSlope * hu) / vu, 1, banks);
      }
    }
    // Low objects (cars, bushes, wall feet) the steps above took as ground.
    if (o.raisedStep > 0) {
      dropRaisedGround(cloud, ground, o.raisedStep / vu, o.raisedRoughness, (o.raisedSlope * hu) / vu, 2);
    }
    // Last, once the foot and the top of every step are settled: the returns on its face, which
    // the densification's angle test and the growth steps, made for gentle slopes, leave out.
    if (o.faceSlope > 0) {
      acceptStepFaces(cloud, exclude, ground, {
        slope: (o.faceSlope * hu) / vu,
        margin: o.faceMargin / vu,
        maxEdge: o.faceEdge * cell,
        cell,
      });
    }
  }
  for (let pass = 0; envelopeFits && pass < o.envelopePasses; pass++) {
    refineOnEnvelope(
      cloud,
      b,
      exclude,
      ground,
      Math.max(o.envelopeCell / 2 ** pass / hu, 2 * spacing),
      o.offset / vu,
      o.offsetSlopeScalar / hu,
      1 / vu,
    );
  }
  context.progress?.(1, 'ground');
  return { ground, surface: { surface, cols, rows, minX: b.minX, minY: b.minY, cell } };
}

/**
 * Second pass, close to how LAStools' lasground settles ground: a TIN through
 * the lowest ground point of every `cell` follows the lower envelope of the
 * ground returns; every non-excluded point from `below` under it to `offset`
 * above it is ground, the rest is not.
 */
function refineOnEnvelope(
  cloud: PointChunk,
  b: Bounds,
  exclude: Uint8Array | null,
  ground: Uint8Array,
  cell: number,
  offset: number,
  slopeScalar: number,
  below: number,
): void {
  const { x, y, z: zs, count } = cloud;
  // The lowest ground point of every cell (those of `pointCells`), the first in input order on a tie.
  const cols = Math.max(1, Math.floor((b.maxX - b.minX) / cell) + 1);
  const rows = Math.max(1, Math.floor((b.maxY - b.minY) / cell) + 1);
  const best = new Int32Array(cols * rows).fill(-1);
  const inv = 1 / cell;
  for (let i = 0; i < count; i++) {
    if (ground[i] !== 1) continue;
    const k = cellIndex(x[i]!, y[i]!, b.minX, b.minY, inv, cols, rows);
    const j = best[k]!;
    if (j < 0 || zs[i]! < zs[j]!) best[k] = i;
  }
  const seed = new Uint8Array(count);
  let seeds = 0;
  for (let k = 0; k < cols * rows; k++) {
    if (best[k]! >= 0) {
      seed[best[k]!] = 1;
      seeds++;
    }
  }
  if (seeds < 3) return;
  // Sample the TIN finely enough that bilinear reading stays on its facets; bound the cell count.
  const area = Math.max(1e-9, (b.maxX - b.minX) * (b.maxY - b.minY));
  const modelCell = Math.max(cell / 2, Math.sqrt(area / 20e6));
  const model = groundModel(cloud, seed, modelCell, Math.ceil((2 * cell) / modelCell) + 2, b);
  const { surface, cols: mc, rows: mr, minX: mx, minY: my, cell: ms } = model;
  const grad = gradient(surface, mc, mr, ms);
  for (let i = 0; i < count; i++) {
    if (exclude && exclude[i] !== 0) {
      ground[i] = 0;
      continue;
    }
    // The position in cells, shared by the model's height (groundAt) and the gradient's cell.
    const u = (x[i]! - mx) / ms;
    const v = (y[i]! - my) / ms;
    const d = zs[i]! - bilinearAt(surface, mc, mr, u - 0.5, v - 0.5);
    const c = Math.min(mc - 1, Math.max(0, Math.floor(u)));
    const r = Math.min(mr - 1, Math.max(0, Math.floor(v)));
    ground[i] = d <= offset + slopeScalar * grad[r * mc + c]! && d >= -below ? 1 : 0;
  }
}

type Bounds = { minX: number; minY: number; maxX: number; maxY: number };

/**
 * Square cells of `cellSize` over the extent `b` (row-major, rows growing
 * northwards): the cell of every point whose `mask` value is `want` (every
 * point when `mask` is null), -1 for the others. The cells of
 * `buildPointGrid`, without its bucket lists, which the passes here do not need.
 */
function pointCells(
  x: Float64Array,
  y: Float64Array,
  count: number,
  cellSize: number,
  b: Bounds,
  mask: Uint8Array | null,
  want: number,
): { cols: number; rows: number; cellOf: Int32Array } {
  const cols = Math.max(1, Math.floor((b.maxX - b.minX) / cellSize) + 1);
  const rows = Math.max(1, Math.floor((b.maxY - b.minY) / cellSize) + 1);
  const cellOf = new Int32Array(count);
  const inv = 1 / cellSize;
  const { minX, minY } = b;
  for (let i = 0; i < count; i++) {
    cellOf[i] = mask !== null && mask[i] !== want ? -1 : cellIndex(x[i]!, y[i]!, minX, minY, inv, cols, rows);
  }
  return { cols, rows, cellOf };
}

/** The cell of (x, y) in {@link pointCells}' grid (`inv`: one over the cell size), clamped to it. */
function cellIndex(x: number, y: number, minX: number, minY: number, inv: number, cols: number, rows: number): number {
  let c = Math.floor((x - minX) * inv);
  let r = Math.floor((y - minY) * inv);
  if (c < 0) c = 0;
  else if (c >= cols) c = cols - 1;
  if (r < 0) r = 0;
  else if (r >= rows) r = rows - 1;
  return r * cols + c;
}

/**
 * Segment check after the densification: a smooth segment (see
 * {@link smoothSegments}) of at least `minPoints` points, most of them
 * objects, that stands above its surroundings (along its outline, neighbours
 * a step lower outnumber neighbours a step higher `elevated` to 1) is an
 * object surface, a roof the densification climbed onto over a low wall or a
 * ramp: its ground points become objects. Ground that the opening left as
 * a minority of a segment level with its surroundings stays.
 */
function dropObjectSegments(
  cloud: PointChunk,
  graph: PointGraph,
  segment: Int32Array,
  ground: Uint8Array,
  step: number,
  minPoints: number,
  elevated: number,
): void {
  const { z, count } = cloud;
  const total = new Int32Array(count);
  const grounds = new Int32Array(count);
  const higher = new Int32Array(count);
  const lower = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const s = segment[i]!;
    if (s < 0) continue;
    total[s]!++;
    if (ground[i]) grounds[s]!++;
    for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
      const j = graph.neighbours[q]!;
      if (segment[j] === s) continue;
      const dz = z[i]! - z[j]!;
      if (dz > step) higher[s]!++;
      else if (dz < -step) lower[s]!++;
    }
  }
  for (let i = 0; i < count; i++) {
    const s = segment[i]!;
    if (s < 0 || !ground[i]) continue;
    if (total[s]! >= minPoints && 2 * grounds[s]! <= total[s]! && higher[s]! > elevated * lower[s]!) ground[i] = 0;
  }
}

/**
 * Raised-point check: a Delaunay TIN of the ground points; a ground point
 * standing above the least-squares plane of its TIN neighbours (`rings` 1)
 * or of those and theirs (`rings` 2, a support wider than a car) by more than
 * `step + perRms × RMS + perSlope × slope` of that plane (a car, a low bush,
 * a wall foot taken as ground) leaves the ground. Rough or steep
 * neighbourhoods tolerate more, so convex terrain stays. Only the points of
 * `only` are tested, when given. Returns the number of points removed.
 */
function dropRaisedGround(
  cloud: PointChunk,
  ground: Uint8Array,
  step: number,
  perRms: number,
  perSlope: number,
  rings: number,
  only: Uint8Array | null = null,
): number {
  const { x, y, z, count } = cloud;
  let n = 0;
  for (let i = 0; i < count; i++) if (ground[i]) n++;
  if (n < 4) return 0;
  const vertex = new Int32Array(n);
  const coords = new Float64Array(2 * n);
  const x0 = x[0]!;
  const y0 = y[0]!;
  n = 0;
  for (let i = 0; i < count; i++) {
    if (!ground[i]) continue;
    vertex[n] = i;
    coords[2 * n] = x[i]! - x0;
    coords[2 * n + 1] = y[i]! - y0;
    n++;
  }
  const { triangles: tri } = new Delaunator(coords);
  // Neighbour lists from the half-edges (vertex to the next one of its triangle; a hull vertex misses one neighbour).
  const degree = new Int32Array(n + 1);
  for (let e = 0; e < tri.length; e++) degree[tri[e]! + 1]!++;
  for (let k = 0; k < n; k++) degree[k + 1]! += degree[k]!;
  const adj = new Int32Array(tri.length);
  const fill = degree.slice(0, n);
  for (let e = 0; e < tri.length; e++) adj[fill[tri[e]!]!++] = tri[e % 3 === 2 ? e - 2 : e + 1]!;
  const remove: number[] = [];
  // Neighbourhood of each vertex: its TIN neighbours, and theirs when `rings` is 2 (the vertex itself left out).
  const stamp = new Int32Array(n).fill(-1);
  const near: number[] = [];
  for (let k = 0; k < n; k++) {
    if (only && !only[vertex[k]!]) continue;
    near.length = 0;
    stamp[k] = k;
    for (let p = degree[k]!; p < degree[k + 1]!; p++) {
      const a = adj[p]!;
      if (stamp[a] === k) continue;
      stamp[a] = k;
      near.push(a);
    }
    if (rings > 1) {
      const first = near.length;
      for (let f = 0; f < first; f++) {
        const a = near[f]!;
        for (let p = degree[a]!; p < degree[a + 1]!; p++) {
          const c = adj[p]!;
          if (stamp[c] === k) continue;
          stamp[c] = k;
          near.push(c);
        }
      }
    }
    const m = near.length;
    if (m < 3) continue;
    const i = vertex[k]!;
    let mx = 0;
    let my = 0;
    let mz = 0;
    for (const a of near) {
      const j = vertex[a]!;
      mx += x[j]! - x[i]!;
      my += y[j]! - y[i]!;
      mz += z[j]! - z[i]!;
    }
    mx /= m;
    my /= m;
    mz /= m;
    let sxx = 0;
    let sxy = 0;
    let syy = 0;
    let sxz = 0;
    let syz = 0;
    for (const a of near) {
      const j = vertex[a]!;
      const dx = x[j]! - x[i]! - mx;
      const dy = y[j]! - y[i]! - my;
      const dz = z[j]! - z[i]! - mz;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
      sxz += dx * dz;
      syz += dy * dz;
    }
    const det = sxx * syy - sxy * sxy;
    if (!(Math.abs(det) > 1e-12 * (sxx + syy) ** 2)) continue;
    const gx = (sxz * syy - syz * sxy) / det;
    const gy = (syz * sxx - sxz * sxy) / det;
    let ss = 0;
    for (const a of near) {
      const j = vertex[a]!;
      const r = z[j]! - z[i]! - mz - gx * (x[j]! - x[i]! - mx) - gy * (y[j]! - y[i]! - my);
      ss += r * r;
    }
    // Height of the point above the plane at its own position.
    const above = gx * mx + gy * my - mz;
    if (above > step + perRms * Math.sqrt(ss / m) + perSlope * Math.sqrt(gx * gx + gy * gy)) remove.push(i);
  }
  for (const i of remove) ground[i] = 0;
  return remove.length;
}

/** Parameters of {@link growGround}, in CRS units. */
interface GrowthParameters {
  /** Height step tolerated from the predicted height on flat ground. */
  step: number;
  /** Extra step per unit of distance to the ground neighbour. */
  slope: number;
  /** Longest TIN edge followed. */
  maxEdge: number;
  /** Most passes (each adds the points next to the last ones added). */
  passes: number;
  /** Predict from the plane continued from the neighbour (slope growth) rather than its height (level growth). */
  alongSlope: boolean;
  /** Deck check of the grown patches (see {@link dropDecks}): outline drops per level meeting; 0 keeps all. */
  deckRatio: number;
  /** Deck check: a drop is more than this plus `dropSlope` per unit of distance lower. */
  drop: number;
  dropSlope: number;
}

/**
 * Growth over terrain steps: a `candidate` point that is not ground joins the
 * ground when it lies within `step + slope × distance` of the height predicted
 * from a ground TIN neighbour. Level growth predicts the neighbour's own
 * height, so ground spreads over the flat edges of terraces that a surface
 * cutting across the step left out; slope growth (`alongSlope`) predicts the
 * plane continued from the neighbour (the least-squares plane of that
 * neighbour and its own ground neighbours), so ground follows smooth slopes
 * over the convex breaks (bank tops, ridges) the first labelling cut.
 * Repeated; grown patches standing as decks over lower ground then leave
 * the ground (see {@link dropDecks}).
 */
function growGround(
  candidate: Uint8Array,
  cloud: PointChunk,
  graph: PointGraph,
  ground: Uint8Array,
  p: GrowthParameters,
): void {
  const { x, y, z, count } = cloud;
  const maxEdge2 = p.maxEdge * p.maxEdge;
  const grown = new Uint8Array(count);
  // Plane gradient at every ground point (slope growth); `valid` marks the points a prediction starts from.
  const gx = new Float32Array(count);
  const gy = new Float32Array(count);
  const valid = new Uint8Array(count);
  // A point's prediction changes when it or a neighbour joined the ground: after the first pass
  // only those are recomputed, and only their neighbours tested.
  const dirty = new Uint8Array(count).fill(1);
  const check = new Uint8Array(count);
  for (let pass = 0; pass < p.passes; pass++) {
    check.fill(0);
    for (let j = 0; j < count; j++) {
      if (!dirty[j]) continue;
      valid[j] = 0;
      if (!ground[j]) continue;
      for (let q = graph.start[j]!; q < graph.start[j + 1]!; q++) check[graph.neighbours[q]!] = 1;
      if (!p.alongSlope) {
        valid[j] = 1;
        continue;
      }
      let sxx = 0;
      let sxy = 0;
      let syy = 0;
      let sxz = 0;
      let syz = 0;
      let m = 0;
      for (let q = graph.start[j]!; q < graph.start[j + 1]!; q++) {
        const k = graph.neighbours[q]!;
        if (!ground[k]) continue;
        const a = x[k]! - x[j]!;
        const b = y[k]! - y[j]!;
        if (a * a + b * b > maxEdge2) continue;
        const c = z[k]! - z[j]!;
        sxx += a * a;
        sxy += a * b;
        syy += b * b;
        sxz += a * c;
        syz += b * c;
        m++;
      }
      const det = sxx * syy - sxy * sxy;
      if (m < 3 || !(Math.abs(det) > 1e-6 * (sxx + syy) ** 2)) continue;
      gx[j] = (sxz * syy - syz * sxy) / det;
      gy[j] = (syz * sxx - sxz * sxy) / det;
      valid[j] = 1;
    }
    const accept: number[] = [];
    for (let i = 0; i < count; i++) {
      if (ground[i] || !candidate[i] || !check[i]) continue;
      for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
        const j = graph.neighbours[q]!;
        if (!valid[j]) continue;
        const dx = x[i]! - x[j]!;
        const dy = y[i]! - y[j]!;
        const d2 = dx * dx + dy * dy;
        if (d2 > maxEdge2) continue;
        const predicted = p.alongSlope ? z[j]! + gx[j]! * dx + gy[j]! * dy : z[j]!;
        if (Math.abs(z[i]! - predicted) <= p.step + p.slope * Math.sqrt(d2)) {
          accept.push(i);
          break;
        }
      }
    }
    dirty.fill(0);
    for (const i of accept) {
      ground[i] = 1;
      grown[i] = 1;
      dirty[i] = 1;
      for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) dirty[graph.neighbours[q]!] = 1;
    }
    if (accept.length === 0) break;
  }
  dropDecks(cloud, graph, ground, grown, p.step, p.slope, p.deckRatio, p.drop, p.dropSlope);
}

/**
 * Patches of `grown` points (joined by TIN edges) whose outline drops by more
 * than `drop` `dropRatio` times more often than it meets level ground are
 * decks (bridges) standing over lower ground: they leave the ground.
 */
function dropDecks(
  cloud: PointChunk,
  graph: PointGraph,
  ground: Uint8Array,
  grown: Uint8Array,
  step: number,
  slope: number,
  dropRatio: number,
  drop: number,
  dropSlope: number,
): void {
  const { x, y, z, count } = cloud;
  if (dropRatio <= 0) return;
  // Patches of grown points (joined by TIN edges); count their outline edges to level ground and to drops.
  const sets = new DisjointSets(count);
  const find = (a: number) => sets.find(a);
  for (let i = 0; i < count; i++) {
    if (!grown[i]) continue;
    for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
      const j = graph.neighbours[q]!;
      if (grown[j]) sets.union(i, j);
    }
  }
  const level = new Int32Array(count);
  const drops = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    if (!grown[i]) continue;
    const r = find(i);
    for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
      const j = graph.neighbours[q]!;
      if (grown[j]) continue;
      const dx = x[j]! - x[i]!;
      const dy = y[j]! - y[i]!;
      const dz = z[i]! - z[j]!;
      const d = Math.sqrt(dx * dx + dy * dy);
      if (dz > drop + dropSlope * d) drops[r]!++;
      else if (ground[j] && Math.abs(dz) <= step + slope * d) level[r]!++;
    }
  }
  for (let i = 0; i < count; i++) if (grown[i] && drops[find(i)]! > dropRatio * level[find(i)]!) ground[i] = 0;
}
