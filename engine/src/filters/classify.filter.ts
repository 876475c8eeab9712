import { z } from 'zod';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { threadPool } from '../core/thread-pool.js';
import { type BuildingOptions, findBuildings, findBuildingsParallel } from './buildings.js';
import { dropOpaqueWires, WIRE_MIN_HEIGHT, wireCandidates } from './classify-wires.task.js';
import { groundFilter, groundOptionsSchema } from './ground.filter.js';
import { noiseAndGroundTiled, type TiledGroundOptions } from './ground-tiled.js';
import { heightAboveGround, heightAboveGroundParallel } from './hag.filter.js';
import { noiseFilter, noiseOptionsSchema } from './noise.filter.js';
import { extent, meanSpacing } from './point-grid.js';
import { findWires, type WireOptions } from './wires.filter.js';

const wiresPool = threadPool(new URL('./classify-wires.worker.mjs', import.meta.url));

/** Fewest wire candidates for which the wire search runs in a worker thread, beside the buildings. */
const WIRES_WORKER_FROM = 50_000;

/**
 * Options of the classification (`filters.classify`). Heights in metres.
 *
 * Vegetation bands by height above ground (HAG), documented defaults:
 * - 3 low vegetation: `lowVegetation` ≤ HAG < `mediumVegetation` (0.3–2 m)
 * - 4 medium vegetation: `mediumVegetation` ≤ HAG < `highVegetation` (2–5 m)
 * - 5 high vegetation: HAG ≥ `highVegetation` (5 m and above)
 * Points that are neither ground, noise, building nor in a band (HAG below
 * 0.3 m) are 1 (unclassified).
 */
export const classifyOptionsSchema = z.object({
  /**
   * `replace` classifies every point but those of {@link VENDOR_KEPT_CLASSES};
   * `keep` keeps every input class other than 0 and 1.
   */
  existing: z.enum(['replace', 'keep']).default('replace'),
  noise: noiseOptionsSchema.partial().default({}),
  ground: groundOptionsSchema.partial().default({}),
  lowVegetation: z.number().min(0).max(5).default(0.3),
  mediumVegetation: z.number().min(0.5).max(20).default(2),
  highVegetation: z.number().min(1).max(50).default(5),
  /** Lowest roof above ground, metres (garden sheds reach 2 m). */
  buildingMinHeight: z.number().min(0.5).max(50).default(2),
  /** Smallest roof area kept as a building, square metres (sheds of 10 m²; canopy is told apart by its roughness). */
  buildingMinArea: z.number().min(1).max(10000).default(10),
  /**
   * Largest RMS distance (across the plane) of a roof seed's neighbourhood to
   * its fitted plane, metres; points join a roof face within twice this
   * distance of the face's plane.
   */
  roofPlanarity: z.number().min(0.01).max(1).default(0.1),
  /** Find wire conductors (14) and transmission towers (15) among the returns high above the ground. */
  wires: z.boolean().default(true),
  /** Horizontal CRS unit in metres. */
  unitToMetre: z.number().positive().default(1),
  /** Vertical unit in metres. */
  verticalUnitToMetre: z.number().positive().optional(),
});
export type ClassifyOptions = z.input<typeof classifyOptionsSchema>;

/**
 * Input classes the classifier never computes and never overwrites, in either
 * `existing` mode: 8 (model key-point), 9 water, 10 rail, 11 road surface,
 * 13 wire guard, 16 wire connector, 17 bridge deck, 19 overhead structure,
 * 20 ignored ground, 21 snow, 22 temporal exclusion and 23–255 (reserved and
 * user-defined). Such points are neither ground nor vegetation here. Class 12
 * (overlap) names no surface and is classified like 0 and 1.
 */
export const VENDOR_KEPT_CLASSES: ReadonlySet<number> = new Set([
  8,
  9,
  10,
  11,
  13,
  16,
  17,
  19,
  20,
  21,
  22,
  ...Array.from({ length: 233 }, (_, k) => 23 + k),
]);

/** 1 at the codes of {@link VENDOR_KEPT_CLASSES}: a lookup per point cheaper than the set's. */
const KEPT_CODE = Uint8Array.from({ length: 256 }, (_, c) => (VENDOR_KEPT_CLASSES.has(c) ? 1 : 0));

/** Result of {@link classifyCloud}. */
export interface ClassifyResult {
  /** ASPRS class of every point. */
  classification: Uint8Array<ArrayBuffer>;
  /** Height above ground of every point, in the vertical unit. */
  hag: Float32Array;
  /** 1 where this run found ground (before `keep` is applied). */
  ground: Uint8Array;
  /** Points per class code. */
  counts: Record<number, number>;
}

/**
 * Classifies a cloud: noise (7, 18), ground (2, SMRF), height above ground,
 * wire conductors (14) and transmission towers (15, see `findWires`),
 * buildings (6: roof faces grown from planar seeds, see `findBuildings`),
 * vegetation (3, 4, 5 by height bands) and 1 for the rest.
 *
 * @example
 * const { classification } = classifyCloud(cloud, { unitToMetre: crs.horizontalUnitToMetre });
 */
export function classifyCloud(
  cloud: PointChunk,
  options: ClassifyOptions = {},
  context: StepContext = {},
): ClassifyResult {
  const o = classifyOptionsSchema.parse(options);
  const units = unitsOf(o);
  context.progress?.(0, 'noise');
  const noise = noiseFilter(cloud, { ...o.noise, ...units }, context);
  context.progress?.(0.15, 'ground');
  const { ground } = groundFilter(cloud, noise, { ...o.ground, ...units }, context);
  return finishClassification(cloud, noise, ground, o, context);
}

/**
 * Same as {@link classifyCloud}, with the noise and ground filters run over
 * spatial tiles in worker threads (see `noiseAndGroundTiled`) for large clouds.
 *
 * @example
 * const { classification } = await classifyCloudTiled(cloud, { unitToMetre: 1 });
 */
export async function classifyCloudTiled(
  cloud: PointChunk,
  options: ClassifyOptions = {},
  context: StepContext = {},
  workers?: number,
): Promise<ClassifyResult> {
  const o = classifyOptionsSchema.parse(options);
  const units = unitsOf(o);
  context.progress?.(0, 'ground');
  const tiled: TiledGroundOptions = { noise: { ...o.noise, ...units }, ground: { ...o.ground, ...units } };
  if (workers !== undefined) tiled.workers = workers;
  const { noise, ground } = await noiseAndGroundTiled(cloud, tiled, context);
  return finishClassificationParallel(cloud, noise, ground, o, context, workers);
}

function unitsOf(o: z.output<typeof classifyOptionsSchema>): { unitToMetre: number; verticalUnitToMetre: number } {
  return { unitToMetre: o.unitToMetre, verticalUnitToMetre: o.verticalUnitToMetre ?? o.unitToMetre };
}

/** What the last stages share: the height above ground and the points whose vendor class is kept. */
interface HeightStage {
  hag: Float32Array;
  vendorKept: Uint8Array;
  /** 1 for noise and ground: never a wire. */
  excluded: Uint8Array;
  buildings: BuildingOptions;
}

/** HAG (vendor-kept classes taken out of the ground first), once noise and ground are known. */
function heightStage(
  cloud: PointChunk,
  noise: Uint8Array,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
): HeightStage {
  const grid = heightGrid(cloud, ground, o, context);
  const hag = grid
    ? heightAboveGround(cloud, ground, grid.cell, context, grid.bounds).hag
    : new Float32Array(cloud.count);
  return heightStageWith(cloud, noise, ground, o, context, hag);
}

/** {@link heightStage} with the ground TIN sampled in worker threads: the same stage. */
async function heightStageParallel(
  cloud: PointChunk,
  noise: Uint8Array,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
  workers?: number,
): Promise<HeightStage> {
  const grid = heightGrid(cloud, ground, o, context);
  const hag = grid
    ? (await heightAboveGroundParallel(cloud, ground, grid.cell, context, grid.bounds, workers)).hag
    : new Float32Array(cloud.count);
  return heightStageWith(cloud, noise, ground, o, context, hag);
}

/**
 * Takes the vendor-kept classes out of the ground; the HAG's cell and the
 * cloud's extent, or null when fewer than 3 ground points are left (HAG 0).
 */
function heightGrid(
  cloud: PointChunk,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
): { cell: number; bounds: ReturnType<typeof extent> } | null {
  if (context.signal?.aborted) throw new Cancelled();
  const count = cloud.count;
  context.progress?.(0.55, 'hag');
  const input = cloud.classification;
  if (input) {
    for (let i = 0; i < count; i++) {
      if (KEPT_CODE[input[i]!]) ground[i] = 0;
    }
  }
  let groundCount = 0;
  for (let i = 0; i < count; i++) groundCount += ground[i]!;
  if (groundCount < 3) return null;
  const bounds = extent(cloud.x, cloud.y, count);
  return { cell: Math.max(0.5 / unitsOf(o).unitToMetre, meanSpacing(bounds, count)), bounds };
}

/** The stage around its HAG. */
function heightStageWith(
  cloud: PointChunk,
  noise: Uint8Array,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
  hag: Float32Array,
): HeightStage {
  const { unitToMetre: hu, verticalUnitToMetre: vu } = unitsOf(o);
  const count = cloud.count;
  const input = cloud.classification;
  const vendorKept = new Uint8Array(count);
  if (input) {
    for (let i = 0; i < count; i++) vendorKept[i] = KEPT_CODE[input[i]!] ? 1 : 0;
  }
  const excluded = new Uint8Array(count);
  for (let i = 0; i < count; i++) excluded[i] = noise[i] || ground[i] ? 1 : 0;
  context.progress?.(0.7, 'buildings');
  const buildings: BuildingOptions = {
    minHeight: o.buildingMinHeight,
    minArea: o.buildingMinArea,
    roofPlanarity: o.roofPlanarity,
    unitToMetre: hu,
    verticalUnitToMetre: vu,
  };
  return { hag, vendorKept, excluded, buildings };
}

/** HAG, buildings, vegetation bands and the `existing` rule, once noise and ground are known. */
function finishClassification(
  cloud: PointChunk,
  noise: Uint8Array,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
): ClassifyResult {
  const stage = heightStage(cloud, noise, ground, o, context);
  const building = findBuildings(cloud, ground, noise, stage.hag, stage.buildings);
  context.progress?.(0.8, 'wires');
  const wires = o.wires ? findWires(cloud, stage.hag, stage.excluded, wireOptions(o), context).classes : null;
  return labelStage(cloud, noise, ground, o, context, stage, building, wires);
}

/** {@link finishClassification} with the roof plane fits of the buildings in worker threads. */
async function finishClassificationParallel(
  cloud: PointChunk,
  noise: Uint8Array,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
  workers?: number,
): Promise<ClassifyResult> {
  const stage = await heightStageParallel(cloud, noise, ground, o, context, workers);
  // The wire search needs no building: it runs in a worker thread while the buildings are found here.
  const wiresFound = o.wires ? wiresInWorker(cloud, stage, wireOptions(o), context, workers) : null;
  // Its rejection is awaited below; until then it must not count as unhandled.
  wiresFound?.catch(() => {});
  const building = await findBuildingsParallel(cloud, ground, noise, stage.hag, stage.buildings, workers);
  context.progress?.(0.8, 'wires');
  const wires = wiresFound ? await wiresFound : null;
  return labelStage(cloud, noise, ground, o, context, stage, building, wires);
}

function wireOptions(o: z.output<typeof classifyOptionsSchema>): WireOptions {
  return { ...unitsOf(o), minHeight: WIRE_MIN_HEIGHT };
}

/**
 * Classes (0, 14, 15) of `findWires` on every point, found in a worker thread
 * from the candidates only (the same result as on the calling thread), or here
 * when there are few.
 */
async function wiresInWorker(
  cloud: PointChunk,
  { hag, excluded }: HeightStage,
  options: WireOptions,
  context: StepContext,
  workers?: number,
): Promise<Uint8Array> {
  const { task, members } = wireCandidates(cloud, hag, excluded, options);
  if (members.length < WIRES_WORKER_FROM || (workers !== undefined && workers <= 1)) {
    return findWires(cloud, hag, excluded, options, context).classes;
  }
  // Moved, not copied: nothing here reads the task again.
  const transferList = [task.x.buffer, task.y.buffer, task.z.buffer, task.hag.buffer, task.excluded.buffer];
  let found: Uint8Array;
  try {
    found = (await wiresPool(1).run(task, {
      transferList: transferList as never,
      ...(context.signal ? { signal: context.signal } : {}),
    })) as Uint8Array;
  } catch (error) {
    if (context.signal?.aborted) throw new Cancelled();
    throw error;
  }
  dropOpaqueWires(cloud, members, found, options);
  const classes = new Uint8Array(cloud.count);
  for (let k = 0; k < members.length; k++) classes[members[k]!] = found[k]!;
  return classes;
}

/** Vegetation bands and the `existing` rule, once the buildings and wires are known. */
function labelStage(
  cloud: PointChunk,
  noise: Uint8Array,
  ground: Uint8Array,
  o: z.output<typeof classifyOptionsSchema>,
  context: StepContext,
  { hag, vendorKept }: HeightStage,
  building: Uint8Array,
  wires: Uint8Array | null,
): ClassifyResult {
  if (context.signal?.aborted) throw new Cancelled();
  const { verticalUnitToMetre: vu } = unitsOf(o);
  const count = cloud.count;
  const classification = new Uint8Array(count);
  const input = cloud.classification;
  const low = o.lowVegetation / vu;
  const medium = o.mediumVegetation / vu;
  const high = o.highVegetation / vu;
  for (let i = 0; i < count; i++) {
    let c: number;
    if (noise[i]) c = noise[i]!;
    else if (ground[i]) c = 2;
    else if (wires?.[i]) c = wires[i]!;
    else if (building[i]) c = 6;
    else {
      const h = hag[i]!;
      c = h >= high ? 5 : h >= medium ? 4 : h >= low ? 3 : 1;
    }
    classification[i] = c;
  }
  if (input) {
    const keepAll = o.existing === 'keep';
    for (let i = 0; i < count; i++) {
      const c = input[i]!;
      if (vendorKept[i] || (keepAll && c !== 0 && c !== 1)) classification[i] = c;
    }
  }
  const counts: Record<number, number> = {};
  for (let i = 0; i < count; i++) {
    const c = classification[i]!;
    counts[c] = (counts[c] ?? 0) + 1;
  }
  context.progress?.(1, 'classify');
  return { classification, hag, ground, counts };
}
