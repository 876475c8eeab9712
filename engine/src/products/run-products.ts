/**
 * Runs products of the registry as a small DAG: the products asked for and
 * what they need, each after its prerequisites, each in a folder of its own
 * under `outDir`. `nuage process`, the `nuage <product>` verbs and the
 * processing job all run products through {@link runProducts}; the job adds
 * hooks that store each product as an asset and resume a crashed run without
 * making finished products again.
 */
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Cancelled, EngineError } from '../core/errors.js';
import { type MemoryFigures, memoryFigures, resetPeakRss } from '../core/memory.js';
import type { ArtifactFormat, ProductDefinition, ProductResult, StoredFile } from '../core/product.js';
import type { TilerOptions } from '../tiler/tiler-options.js';
import { productClosure as closureOf } from './catalog.js';
import type { ProcessingOptions } from './options.js';
import { PRODUCTS } from './registry.js';

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
  const runs: ProductRun[] = [];
  const artifacts: ManifestArtifact[] = [];
  const toMake = closure.filter((p) => make.has(p.id));
  const total = toMake.reduce((s, p) => s + p.weight, 0) || 1;
  let before = 0;
  const log = o.log ?? (() => {});
  // How many products left to make read each value: one no product reads any more is let go, so its memory is freed.
  const readsOf = (p: ProductDefinition) => new Set([...p.needs, ...(p.uses ?? [])]);
  const readers = new Map<string, number>();
  for (const p of toMake) for (const id of readsOf(p)) readers.set(id, (readers.get(id) ?? 0) + 1);
  const release = (p: ProductDefinition) => {
    for (const id of readsOf(p)) {
      readers.set(id, readers.get(id)! - 1);
      if (readers.get(id) === 0) values.delete(id);
    }
  };

  for (const product of closure) {
    if (o.signal?.aborted) throw new Cancelled();
    if (restore.has(product.id)) {
      const files = await stored.get(product.id)!();
      values.set(product.id, await product.restore!.load(files, { epsg: o.input.epsg, signal: o.signal }));
    }
    if (!make.has(product.id)) {
      if (stored.has(product.id) && (!selected || selected.includes(product.id))) {
        runs.push({ id: product.id, assetType: product.assetType, status: 'DONE' });
      }
      continue;
    }
    const start = before / total;
    const span = product.weight / total;
    before += product.weight;
    o.progress?.(start, product.id);
    const missing = product.needs.filter((n) => failed.has(n));
    if (missing.length > 0) {
      const error = product.needFailed
        ? new EngineError(product.needFailed.code, product.needFailed.message)
        : new DependencyFailed(product.id, missing);
      failed.add(product.id);
      await o.hooks?.failed?.(product, error);
      runs.push({ id: product.id, assetType: product.assetType, status: 'ERROR', error: errorOf(error) });
      release(product);
      continue;
    }
    const workDir = path.join(o.outDir, product.id);
    await mkdir(workDir, { recursive: true });
    await o.hooks?.starting?.(product);
    resetPeakRss();
    const t0 = performance.now();
    try {
      const extra = await o.hooks?.input?.(product);
      const result = await product.run({
        input: extra ? { ...input, ...extra } : input,
        options: o.options,
        need: <T>(id: string): T => {
          if (!product.needs.includes(id)) throw new Error(`product ${product.id} reads ${id} without needing it`);
          if (!values.has(id)) throw new Error(`product ${product.id} needs ${id}, which has no value`);
          return values.get(id) as T;
        },
        use: <T>(id: string): T | undefined => {
          if (!product.uses?.includes(id)) throw new Error(`product ${product.id} uses ${id} without declaring it`);
          return values.get(id) as T | undefined;
        },
        language: o.language ?? 'en-US',
        artifacts: () => artifacts,
        workDir,
        tmpDir,
        sourceName: o.sourceName ?? input.name.replace(/\.[^.]*$/, ''),
        tilerOptions: o.tilerOptions ?? {},
        ...(o.signal ? { signal: o.signal } : {}),
        progress: (f) => o.progress?.(start + span * Math.max(0, Math.min(1, f)), product.id),
        log: (message, data) => log(message, { product: product.id, ...data }),
      });
      const made = await artifactsOf(product, result, o.outDir);
      await o.hooks?.finished?.(product, result, made);
      if (readers.get(product.id)) values.set(product.id, result.value ?? true);
      artifacts.push(...made);
      runs.push({
        id: product.id,
        assetType: product.assetType,
        status: 'READY',
        ms: Math.round(performance.now() - t0),
        memory: memoryFigures(),
        ...(result.figures ? { figures: result.figures } : {}),
      });
    } catch (error) {
      if (error instanceof Cancelled || o.signal?.aborted) throw error;
      log('product failed', { product: product.id, error: (error as Error)?.message });
      failed.add(product.id);
      await o.hooks?.failed?.(product, error);
      runs.push({ id: product.id, assetType: product.assetType, status: 'ERROR', error: errorOf(error) });
    }
    release(product);
  }
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

/** Writes `manifest.json` into a run folder; returns its path. */
export async function writeManifest(outDir: string, manifest: Manifest): Promise<string> {
  const file = path.join(outDir, 'manifest.json');
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return file;
}
