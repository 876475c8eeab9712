/**
 * Runs products of the registry as a small DAG: the products asked for and
 * what they need, each after its prerequisites, each in a folder of its own
 * under `outDir`. `nuage process`, the `nuage <product>` verbs and the
 * processing job all run products through {@link runProducts}; the job adds
 * hooks that store each product as an asset and resume a crashed run without
 * making finished products again.
 */

import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Cancelled, EngineError } from '../core/errors.js';
import { collectGarbage } from '../core/gc.js';
import { type MemoryFigures, memoryFigures, resetPeakRss } from '../core/memory.js';
import type { ArtifactFormat, ProductDefinition, ProductResult, StoredFile } from '../core/product.js';
import { openFileSource } from '../readers/byte-source.js';
import { readLasHeader } from '../readers/las-header.js';
import type { TilerOptions } from '../tiler/tiler-options.js';
import { productClosure as closureOf } from './catalog.js';
import type { ProcessingOptions } from './options.js';
import { NotTransferable, ProductLanes } from './product-lanes.js';
import { valueReaders } from './product-thread.task.js';
import { PRODUCTS } from './registry.js';
import { isPacked, packValue, unpackValue } from './value-codec.js';

/** One entry of `manifest.json`: a file or a folder of tiles a run made. */
export interface ManifestArtifact {
  /** Asset type. */
  type: string;
  /** Path relative to the run folder, forward slashes. */
  path: string;
  format: ArtifactFormat;
  /** Horizontal CRS of the file. */
  epsg: number | null;
  /** Points, features, pixels or tiles. */
  count: number;
  bytes: number;
}

/** What became of one product in a run. */
export interface ProductRun {
  id: string;
  assetType: string;
  /** READY: made now; DONE: made by an earlier run (resumed); ERROR: failed or a need failed. */
  status: 'READY' | 'DONE' | 'ERROR';
  ms?: number;
  /** The lane thread that made it (its thread id), when it ran in one. */
  thread?: number;
  /** Process memory while the product ran: peak RSS, and RSS and typed arrays when it ended (MB). */
  memory?: MemoryFigures;
  error?: { code: string; message: string };
  figures?: Record<string, unknown>;
}

/** `manifest.json` of a run. */
export interface Manifest {
  version: 1;
  /** File name of the input. */
  input: string;
  options: ProcessingOptions;
  products: ProductRun[];
  artifacts: ManifestArtifact[];
}

/** Raised for a product whose prerequisite failed. */
export class DependencyFailed extends EngineError {
  constructor(product: string, needs: string[]) {
    super('DEPENDENCY_FAILED', `${product} needs ${needs.join(', ')}, which failed`);
    this.name = 'DependencyFailed';
  }
}

/** Hooks of a run (the processing job stores assets through them). */
export interface RunHooks {
  /**
   * Whether an earlier run already made this product: a function fetching its
   * files (called only when a product to make needs its value), or null.
   */
  done?(product: ProductDefinition): Promise<null | (() => Promise<StoredFile[]>)>;
  /** Before a product runs. */
  starting?(product: ProductDefinition): Promise<void>;
  /** Input a product about to run gets on top of the run's (the processing job hands the classification a tiled run's classes). */
  input?(product: ProductDefinition): Promise<{ classes?: string } | undefined>;
  /** After a product ran, with what it made. */
  finished?(product: ProductDefinition, result: ProductResult, artifacts: ManifestArtifact[]): Promise<void>;
  /**
   * False when `finished` never reads `result.value` (the processing job
   * stores files and features only): a product run on a lane then hands back
   * no value that no later product reads. Default true.
   */
  finishedReadsValue?: boolean;
  /** A product failed (or could not run because a need failed). */
  failed?(product: ProductDefinition, error: unknown): Promise<void>;
}

/** Options of {@link runProducts}. */
export interface RunOptions {
  /** The point cloud: local path, the user's file name (default: the path's), EPSG code to use; the orthophoto to colour it from. */
  input: { path: string; name?: string; epsg?: number; orthophoto?: string; classes?: string };
  options: ProcessingOptions;
  /** Run folder: each product writes into `<outDir>/<id>/`. */
  outDir: string;
  tmpDir?: string;
  sourceName?: string;
  tilerOptions?: Partial<TilerOptions>;
  signal?: AbortSignal;
  /** Progress of the whole run in [0, 1], with the product id. */
  progress?: (fraction: number, step: string) => void;
  log?: (message: string, data?: Record<string, unknown>) => void;
  hooks?: RunHooks;
  /** Language of documents (reports); default en-US. */
  language?: 'en-US' | 'fr';
  /** The product list (tests); the registry by default. */
  registry?: readonly ProductDefinition[];
  /**
   * Lane threads running products of the registry beside this thread (0: one
   * product at a time, on this thread). Default: NUAGE_PRODUCT_LANES, else
   * one per core for clouds of {@link LANES_FROM_POINTS} points or more, else 0.
   */
  lanes?: number;
}

/** Clouds from this many points up run their products in lanes by default (below, starting threads costs more than it saves). */
export const LANES_FROM_POINTS = 1_000_000;

/** Lanes of a run that does not say: NUAGE_PRODUCT_LANES, else one per core for a big enough cloud, else 0. */
async function defaultLanes(file: string): Promise<number> {
  const env = process.env.NUAGE_PRODUCT_LANES;
  if (env !== undefined && env !== '' && Number.isInteger(Number(env)) && Number(env) >= 0) return Number(env);
  let points = 0;
  try {
    const source = await openFileSource(file);
    try {
      points = (await readLasHeader(source)).pointCount;
    } finally {
      await source.close();
    }
  } catch {
    // Not a readable cloud: the classification says why; one product at a time meanwhile.
  }
  return points >= LANES_FROM_POINTS ? availableParallelism() : 0;
}

/** What a run did. */
export interface RunOutcome {
  runs: ProductRun[];
  manifest: Manifest;
}

/**
 * The products to consider for a selection: the selected ids and everything
 * they need, in an order where each comes after its needs (registry order
 * otherwise). Unknown ids and cycles are refused.
 */
export function productClosure(
  selected: readonly string[] | undefined,
  registry: readonly ProductDefinition[] = PRODUCTS,
): ProductDefinition[] {
  return closureOf(selected, registry);
}

/**
 * Which products to make and which to restore, given those an earlier run
 * made (`done`): selected products not done are made; a product a made one
 * needs is restored when done and restorable, else made too. Products neither
 * made nor restored are left alone.
 */
export function planRun(
  closure: readonly ProductDefinition[],
  selected: readonly string[] | undefined,
  done: ReadonlySet<string>,
): { make: Set<string>; restore: Set<string> } {
  const byId = new Map(closure.map((p) => [p.id, p]));
  const wanted = selected ? new Set(selected) : new Set(closure.map((p) => p.id));
  const make = new Set([...wanted].filter((id) => !done.has(id)));
  const restore = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of [...make]) {
      const product = byId.get(id)!;
      for (const need of product.needs) {
        if (make.has(need) || restore.has(need)) continue;
        if (done.has(need) && byId.get(need)!.restore) restore.add(need);
        else make.add(need);
        changed = true;
      }
      // What it uses: read back when an earlier run made it and it can be, else done without.
      for (const use of product.uses ?? []) {
        if (make.has(use) || restore.has(use) || !byId.has(use)) continue;
        if (done.has(use) && byId.get(use)!.restore) {
          restore.add(use);
          changed = true;
        }
      }
    }
  }
  return { make, restore };
}

async function folderBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    bytes += e.isDirectory() ? await folderBytes(full) : (await stat(full)).size;
  }
  return bytes;
}

/** Manifest entries of a product's result, paths relative to `outDir`. */
export async function artifactsOf(
  product: ProductDefinition,
  result: ProductResult,
  outDir: string,
): Promise<ManifestArtifact[]> {
  const rel = (p: string) => path.relative(outDir, p).split(path.sep).join('/');
  const out: ManifestArtifact[] = [];
  for (const f of result.files) {
    out.push({
      type: product.assetType,
      path: rel(f.path),
      format: f.format,
      epsg: f.epsg,
      count: f.count,
      bytes: (await stat(f.path)).size,
    });
  }
  if (result.tiles) {
    out.push({
      type: product.assetType,
      path: rel(result.tiles.dir),
      format: result.tiles.format,
      epsg: result.tiles.epsg,
      count: result.tiles.count,
      bytes: await folderBytes(result.tiles.dir),
    });
  }
  return out;
}

function errorOf(error: unknown): { code: string; message: string } {
  if (error instanceof EngineError) return { code: error.code, message: error.message };
  return { code: 'PRODUCT_FAILED', message: (error as Error)?.message ?? String(error) };
}

/**
 * Runs the selected products (`options.products`, every product when absent)
 * with their prerequisites. A failing product marks ERROR and skips those that
 * need it; the others go on. Cancellation stops the run.
 *
 * @example
 * const { manifest } = await runProducts({ input: { path: 'in.laz' }, options, outDir: 'out' });
 */
export async function runProducts(o: RunOptions): Promise<RunOutcome> {
  const registry = o.registry ?? PRODUCTS;
  const input = { ...o.input, name: o.input.name ?? path.basename(o.input.path) };
  const selected = o.options.products;
  const closure = productClosure(selected, registry);
  const stored = new Map<string, () => Promise<StoredFile[]>>();
  for (const p of closure) {
    const files = await o.hooks?.done?.(p);
    if (files) stored.set(p.id, files);
  }
  const { make, restore } = planRun(closure, selected, new Set(stored.keys()));
  await mkdir(o.outDir, { recursive: true });
  const tmpDir = o.tmpDir ?? path.join(o.outDir, '.tmp');
  await mkdir(tmpDir, { recursive: true });

  const values = new Map<string, unknown>();
  const failed = new Set<string>();
  const laneOf = new Map<string, boolean>();
  const artifacts: ManifestArtifact[] = [];
  const toMake = closure.filter((p) => make.has(p.id));
  const total = toMake.reduce((s, p) => s + p.weight, 0) || 1;
  const log = o.log ?? (() => {});
  // How many products left to make read each value: one no product reads any more is let go, so its memory is freed.
  const readers = new Map<string, number>();
  for (const p of toMake) for (const id of readsOf(p)) readers.set(id, (readers.get(id) ?? 0) + 1);
  /** A product is done with the values it read: those no other product reads are dropped (true if any was). */
  const release = (p: ProductDefinition): boolean => {
    let dropped = false;
    for (const id of readsOf(p)) {
      readers.set(id, readers.get(id)! - 1);
      if (readers.get(id) === 0) dropped = values.delete(id) || dropped;
    }
    return dropped;
  };

  // Restored values first (they come from files of an earlier run), and the DONE entries of that run.
  const order = new Map(closure.map((p, i) => [p.id, i]));
  const runOf = new Map<string, ProductRun>();
  const artifactsOfProduct = new Map<string, ManifestArtifact[]>();
  for (const product of closure) {
    if (o.signal?.aborted) throw new Cancelled();
    if (restore.has(product.id)) {
      const files = await stored.get(product.id)!();
      values.set(product.id, await product.restore!.load(files, { epsg: o.input.epsg, signal: o.signal }));
    }
    if (!make.has(product.id) && stored.has(product.id) && (!selected || selected.includes(product.id))) {
      runOf.set(product.id, { id: product.id, assetType: product.assetType, status: 'DONE' });
    }
  }
  // What every product made so far, in the run's order (a product reading them runs after all those before it).
  const artifactsSoFar = () =>
    [...artifactsOfProduct.entries()].sort((a, b) => order.get(a[0])! - order.get(b[0])!).flatMap(([, a]) => a);

  // Products run as soon as what they read is ready: on this thread, or in a lane thread when there are lanes.
  const laneCount = o.lanes ?? (await defaultLanes(o.input.path));
  const lanes = laneCount > 0 ? new ProductLanes(laneCount) : null;
  // With lanes, a lane that frees takes the ready product with the longest chain of work after it first
  // (run's order among equals): the chain to the report is not left waiting behind short side products.
  const pending = lanes ? byLongestChain(toMake, order) : [...toMake];
  const settled = new Set<string>();
  const running = new Map<string, Promise<void>>();
  const fractions = new Map<string, number>();
  let doneWeight = 0;
  const report = (id: string) => {
    let f = doneWeight;
    for (const [rid, fr] of fractions) f += registryWeight(rid) * fr;
    o.progress?.(Math.min(1, f / total), id);
  };
  const registryWeight = (id: string) => closure[order.get(id)!]!.weight;
  // Hooks run one at a time, in the order products reach them (the job stores assets through them).
  let hookChain: Promise<unknown> = Promise.resolve();
  const hook = <T>(call: () => Promise<T> | undefined): Promise<T | undefined> => {
    const next = hookChain.then(call);
    hookChain = next.catch(() => {});
    return next;
  };
  const ready = (p: ProductDefinition) => {
    for (const id of p.needs) if (make.has(id) && !settled.has(id)) return false;
    for (const id of p.uses ?? []) if (make.has(id) && !settled.has(id)) return false;
    if (p.readsArtifacts) {
      for (const q of toMake) if (order.get(q.id)! < order.get(p.id)! && !settled.has(q.id)) return false;
    }
    return true;
  };

  const execute = async (product: ProductDefinition, onLane: boolean): Promise<void> => {
    const missing = product.needs.filter((n) => failed.has(n));
    if (missing.length > 0) {
      const error = product.needFailed
        ? new EngineError(product.needFailed.code, product.needFailed.message)
        : new DependencyFailed(product.id, missing);
      failed.add(product.id);
      await hook(() => o.hooks?.failed?.(product, error));
      runOf.set(product.id, { id: product.id, assetType: product.assetType, status: 'ERROR', error: errorOf(error) });
      return;
    }
    const workDir = path.join(o.outDir, product.id);
    await mkdir(workDir, { recursive: true });
    await hook(() => o.hooks?.starting?.(product));
    if (running.size <= 1) resetPeakRss();
    const t0 = performance.now();
    fractions.set(product.id, 0);
    report(product.id);
    try {
      const extra = await hook(() => o.hooks?.input?.(product));
      const productInput = extra ? { ...input, ...extra } : input;
      const progress = (f: number) => {
        fractions.set(product.id, Math.max(0, Math.min(1, f)));
        report(product.id);
      };
      const productLog = (message: string, data?: Record<string, unknown>) =>
        log(message, { product: product.id, ...data });
      let result: ProductResult | null = null;
      let thread: number | undefined;
      if (onLane && lanes) {
        const own: Record<string, unknown> = {};
        for (const id of readsOf(product)) {
          if (!values.has(id)) continue;
          // Packed once (a lane's value comes packed already): posted again to every lane reading it at no cost.
          const packed = packValue(values.get(id));
          values.set(id, packed);
          own[id] = packed;
        }
        try {
          ({ result, thread } = await lanes.run(
            {
              productId: product.id,
              input: productInput,
              options: o.options,
              values: own,
              artifacts: artifactsSoFar(),
              language: o.language ?? 'en-US',
              workDir,
              tmpDir,
              sourceName: o.sourceName ?? input.name.replace(/\.[^.]*$/, ''),
              tilerOptions: o.tilerOptions ?? {},
              wantFeatures: Boolean(o.hooks?.finished),
              // Products after it read its value; a `finished` hook reading values is handed it too (unpacked when read).
              wantValue:
                Boolean(readers.get(product.id)) ||
                (Boolean(o.hooks?.finished) && o.hooks?.finishedReadsValue !== false),
            },
            { progress, log: productLog },
            o.signal,
          ));
        } catch (error) {
          if (!(error instanceof NotTransferable)) throw error;
          productLog('product runs on the main thread', { reason: error.message });
        }
      }
      result ??= await product.run({
        input: productInput,
        options: o.options,
        ...valueReaders(product, values),
        language: o.language ?? 'en-US',
        artifacts: artifactsSoFar,
        workDir,
        tmpDir,
        sourceName: o.sourceName ?? input.name.replace(/\.[^.]*$/, ''),
        tilerOptions: o.tilerOptions ?? {},
        ...(o.signal ? { signal: o.signal } : {}),
        progress,
        log: productLog,
      });
      const done = result;
      const made = await artifactsOf(product, done, o.outDir);
      // A lane's value comes packed: the hook reads the product's value itself, unpacked on first read.
      const finished = isPacked(done.value) ? withUnpackedValue(done) : done;
      await hook(() => o.hooks?.finished?.(product, finished, made));
      if (readers.get(product.id)) values.set(product.id, done.value ?? true);
      artifactsOfProduct.set(product.id, made);
      runOf.set(product.id, {
        id: product.id,
        assetType: product.assetType,
        status: 'READY',
        ms: Math.round(performance.now() - t0),
        memory: memoryFigures(),
        ...(thread !== undefined ? { thread } : {}),
        ...(done.figures ? { figures: done.figures } : {}),
      });
    } catch (error) {
      if (error instanceof Cancelled || o.signal?.aborted) throw error;
      log('product failed', { product: product.id, error: (error as Error)?.message });
      failed.add(product.id);
      await hook(() => o.hooks?.failed?.(product, error));
      runOf.set(product.id, { id: product.id, assetType: product.assetType, status: 'ERROR', error: errorOf(error) });
    }
  };

  let firstError: unknown = null;
  try {
    while (pending.length > 0 || running.size > 0) {
      if (o.signal?.aborted || firstError) {
        if (running.size === 0) break;
      } else {
        // Start every product whose inputs are ready, in `pending`'s order, while there is room.
        for (let i = 0; i < pending.length; i++) {
          const product = pending[i]!;
          if (!ready(product)) continue;
          const laneable = lanes !== null && PRODUCTS.includes(product) && !product.mainThread;
          const onLanes = [...running.keys()].filter((id) => laneOf.get(id)).length;
          if (laneable ? onLanes >= laneCount : running.size > onLanes) continue;
          // Without lanes, one product at a time, as before.
          if (!lanes && running.size > 0) break;
          pending.splice(i--, 1);
          laneOf.set(product.id, laneable);
          const task = execute(product, laneable)
            .catch((error) => {
              firstError ??= error;
            })
            .finally(() => {
              running.delete(product.id);
              fractions.delete(product.id);
              settled.add(product.id);
              doneWeight += product.weight;
              // A value dropped, or a product of this thread done (the classification's scratch): freed now,
              // not when V8 next feels pressure in this thread's small heap (see collectGarbage).
              if (release(product) || !laneable) collectGarbage();
            });
          running.set(product.id, task);
        }
      }
      if (running.size === 0) {
        if (pending.length > 0 && !o.signal?.aborted && !firstError) {
          throw new Error(`products that can never start: ${pending.map((p) => p.id).join(', ')}`);
        }
        break;
      }
      await Promise.race(running.values());
    }
  } finally {
    await lanes?.close();
  }
  if (firstError) throw firstError;
  if (o.signal?.aborted) throw new Cancelled();
  const runs = closure.filter((p) => runOf.has(p.id)).map((p) => runOf.get(p.id)!);
  artifacts.push(...artifactsSoFar());
  o.progress?.(1, 'done');
  const manifest: Manifest = {
    version: 1,
    input: input.name,
    options: o.options,
    products: runs,
    artifacts,
  };
  return { runs, manifest };
}

/** The products whose values a product reads: what it needs and what it uses. */
function readsOf(p: ProductDefinition): Set<string> {
  return new Set([...p.needs, ...(p.uses ?? [])]);
}

/**
 * The products of a run, those with the longest chain of work ahead first:
 * a product's chain is its weight plus the longest chain among the products
 * reading it (a product reading artifacts reads every product before it).
 * Equal chains keep the run's order.
 */
export function byLongestChain(
  products: readonly ProductDefinition[],
  order: ReadonlyMap<string, number>,
): ProductDefinition[] {
  const readers = new Map<string, ProductDefinition[]>(products.map((p) => [p.id, []]));
  for (const q of products) {
    for (const p of products) {
      if (p === q) continue;
      const reads = readsOf(q).has(p.id) || (q.readsArtifacts === true && order.get(p.id)! < order.get(q.id)!);
      if (reads) readers.get(p.id)!.push(q);
    }
  }
  const chain = new Map<string, number>();
  const chainOf = (p: ProductDefinition): number => {
    const known = chain.get(p.id);
    if (known !== undefined) return known;
    let longest = 0;
    for (const q of readers.get(p.id)!) longest = Math.max(longest, chainOf(q));
    chain.set(p.id, p.weight + longest);
    return p.weight + longest;
  };
  return [...products].sort((a, b) => chainOf(b) - chainOf(a) || order.get(a.id)! - order.get(b.id)!);
}

/** Writes `manifest.json` into a run folder; returns its path. */
export async function writeManifest(outDir: string, manifest: Manifest): Promise<string> {
  const file = path.join(outDir, 'manifest.json');
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return file;
}

/** `result` with its packed value ({@link packValue}) read unpacked, once, when the caller reads it. */
function withUnpackedValue(result: ProductResult): ProductResult {
  let value: unknown;
  let unpacked = false;
  return Object.defineProperty({ ...result }, 'value', {
    enumerable: true,
    get() {
      if (!unpacked) {
        value = unpackValue(result.value);
        unpacked = true;
      }
      return value;
    },
  });
}
