import { open, readFile, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { EngineError, InvalidInput } from '../core/errors.js';
import type { ArtifactFormat } from '../core/product.js';
import { PRODUCT_CATALOG, type ProductEntry, productClosure } from '../products/catalog.js';
import { flagOf, OPTION_FIELDS, OPTION_NAMES, type OptionName } from '../products/option-fields.js';
import type { RunOutcome } from '../products/run-products.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption, type VerbArgs } from './verb.js';

/** `--orthophoto FILE.tif`: the RGB GeoTIFF the classified cloud takes its colours from (an upload's asset id in the API). */
const ORTHOPHOTO_OPTION = { orthophoto: { type: 'string' } } as const;

/** The input of a run: the point cloud, its EPSG code, the orthophoto to colour it from. */
/** A positive number flag, or undefined when absent. */
function positiveNumber(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(n) || n <= 0) {
    throw new InvalidInput(flag, `--${flag} must be a positive number, got "${String(value)}"`);
  }
  return n;
}

function runInput(input: string, values: VerbArgs['values']) {
  const epsg = parseEpsgOption(values.epsg);
  return {
    path: input,
    ...(epsg === undefined ? {} : { epsg }),
    ...(typeof values.orthophoto === 'string' ? { orthophoto: values.orthophoto } : {}),
  };
}

/** `--lang en-US|fr`: the language of documents (the PDF report). */
const LANG_OPTION = { lang: { type: 'string' } } as const;

function parseLang(value: unknown): 'en-US' | 'fr' {
  if (value === undefined) return 'en-US';
  const v = String(value);
  if (v === 'fr' || v.startsWith('fr-')) return 'fr';
  if (v === 'en' || v.startsWith('en-')) return 'en-US';
  throw new InvalidInput('--lang', `"${v}" is not a language of the reports (en-US or fr)`);
}

/** Format of a file from its first bytes: a point cloud, a GeoTIFF, or unknown. */
async function sniff(file: string): Promise<ArtifactFormat | 'pointCloud' | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (cause) {
    throw new InvalidInput('IN', `cannot read ${file}: ${(cause as Error).message}`);
  }
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    const magic = head.toString('latin1');
    if (magic === 'LASF') return 'pointCloud';
    if (magic === 'II*\0' || magic === 'MM\0*') return 'GTiff';
    return null;
  } finally {
    await handle.close();
  }
}

/** The CLI flags of processing options: `--dtm-resolution-cm 50`, `--power-line-buffers-cm 300,600`. */
function optionFlags(names: readonly OptionName[]): Record<string, { type: 'string' }> {
  return Object.fromEntries(names.map((n) => [flagOf(n), { type: 'string' as const }]));
}

function usageOfOptions(names: readonly OptionName[]): string {
  return names
    .map((n) => {
      const f = OPTION_FIELDS[n];
      const value = f.kind === 'choice' ? f.choices.join('|') : f.kind === 'centimetreList' ? 'CM[,CM]' : 'CM';
      return `[--${flagOf(n)} ${value}]`;
    })
    .join(' ');
}

/** Processing options from `--options FILE.json` and option flags; InvalidInput names the flag. */
async function readOptions(values: VerbArgs['values'], names: readonly OptionName[], products?: string[]) {
  let raw: Record<string, unknown> = {};
  if (typeof values.options === 'string') {
    let text: string;
    try {
      text = await readFile(values.options, 'utf8');
    } catch (cause) {
      throw new InvalidInput('--options', `cannot read ${values.options}: ${(cause as Error).message}`);
    }
    try {
      raw = JSON.parse(text) as Record<string, unknown>;
    } catch (cause) {
      throw new InvalidInput('--options', `${values.options} is not JSON: ${(cause as Error).message}`);
    }
  }
  for (const name of names) {
    const v = values[flagOf(name)];
    if (typeof v !== 'string') continue;
    const f = OPTION_FIELDS[name];
    const number = (s: string) => {
      const n = Number(s);
      if (s.trim() === '' || !Number.isFinite(n)) throw new InvalidInput(`--${flagOf(name)}`, `"${s}" is not a number`);
      return n;
    };
    raw[name] =
      f.kind === 'choice' ? v.toUpperCase() : f.kind === 'centimetreList' ? v.split(',').map(number) : number(v);
  }
  if (products) raw.products = products;
  const { processingOptionsSchema } = await import('../products/options.js');
  const parsed = processingOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'options');
    const where = (OPTION_NAMES as string[]).includes(field) ? `--${flagOf(field)}` : `options.${field}`;
    throw new InvalidInput(where, issue.message);
  }
  return parsed.data;
}

/** Prints a run's artifacts and failures; the exit code (2 when a product met bad input, 1 on other failures). */
function report(outcome: RunOutcome, outDir: string, manifest: string, out: (line: string) => void): number {
  for (const a of outcome.manifest.artifacts) {
    out(`${a.type.padEnd(24)} ${path.join(outDir, a.path)} (${a.format}, ${a.count} × ${a.bytes} bytes)`);
  }
  out(`manifest: ${manifest}`);
  const failed = outcome.runs.filter((r) => r.status === 'ERROR');
  if (failed.length === 0) return 0;
  const first = failed.find((r) => r.error?.code !== 'DEPENDENCY_FAILED') ?? failed[0]!;
  const bad = first.error?.code === 'PRODUCT_FAILED' ? 1 : 2;
  throw Object.assign(new EngineError(first.error?.code ?? 'PRODUCT_FAILED', `${first.id}: ${first.error?.message}`), {
    exitCode: bad,
  });
}

/**
 * The `nuage <id>` verb of a product: makes it (and what it needs) from a
 * point cloud, or from a file of a product it needs (a DTM GeoTIFF for
 * `nuage hillshade`), into OUTDIR with a manifest.json.
 */
export function productVerb(product: ProductEntry): CliVerb {
  return productsVerb(product.id, [product.id], product.summary);
}

/** A verb making several products (and what they need) in one run, e.g. `nuage trees`. */
export function productsVerb(name: string, ids: readonly string[], summary: string): CliVerb {
  const closure = productClosure(ids, PRODUCT_CATALOG);
  const names = OPTION_NAMES.filter((n) => closure.some((p) => p.options.includes(n)));
  const restorable = closure.filter((p) => p.restoreFormat && !ids.includes(p.id) && p.restoreFormat !== 'LAS');
  const from = restorable.map((p) => `a ${p.id} ${p.restoreFormat}`).join(' or ');
  const colours = closure.some((p) => p.id === 'classify');
  const verb: CliVerb = {
    name,
    summary,
    usage:
      `nuage ${name} IN OUTDIR ${usageOfOptions(names)}${colours ? ' [--orthophoto FILE.tif]' : ''} [--options FILE.json] [--epsg N] [--lang en-US|fr]`.replace(
        /\s+/g,
        ' ',
      ),
    options: {
      ...EPSG_OPTION,
      ...LANG_OPTION,
      ...(colours ? ORTHOPHOTO_OPTION : {}),
      options: { type: 'string' },
      ...optionFlags(names),
    },
    async run({ positionals, values, out }) {
      expectPositionals(verb, positionals, 2);
      const [input, outDir] = positionals as [string, string];
      const options = await readOptions(values, names, [...ids]);
      const format = await sniff(input);
      const source = format === 'pointCloud' ? undefined : restorable.find((p) => p.restoreFormat === format);
      if (format !== 'pointCloud' && !source) {
        throw new InvalidInput('IN', `${input} is neither a LAS/LAZ/COPC point cloud${from ? ` nor ${from}` : ''}`);
      }
      const { runProducts, writeManifest } = await import('../products/run-products.js');
      const outcome = await runProducts({
        input: runInput(input, values),
        options,
        outDir,
        language: parseLang(values.lang),
        hooks: source
          ? { done: async (p) => (p.id === source.id ? async () => [{ path: input, extension: 'tif' }] : null) }
          : {},
      });
      return report(outcome, outDir, await writeManifest(outDir, outcome.manifest), out);
    },
  };
  return verb;
}

/** `nuage process IN OUTDIR`: every product (or `--products A,B` and what they need), as a processing job does. */
export const processVerb: CliVerb = {
  name: 'process',
  summary: 'every product (or --products A,B with what they need) into OUTDIR with a manifest.json, as a job does',
  usage: `nuage process IN OUTDIR [--products ID,ID] [--options FILE.json] ${usageOfOptions(OPTION_NAMES)} [--orthophoto FILE.tif] [--epsg N] [--tile-points N|0 [--tile-buffer M] [--tile-threads N]]`,
  options: {
    ...EPSG_OPTION,
    ...LANG_OPTION,
    ...ORTHOPHOTO_OPTION,
    options: { type: 'string' },
    products: { type: 'string' },
    'tile-points': { type: 'string' },
    'tile-buffer': { type: 'string' },
    'tile-threads': { type: 'string' },
    ...optionFlags(OPTION_NAMES),
  },
  async run({ positionals, values, out }) {
    expectPositionals(processVerb, positionals, 2);
    const [input, outDir] = positionals as [string, string];
    const products = typeof values.products === 'string' ? values.products.split(',').map((s) => s.trim()) : undefined;
    const options = await readOptions(values, OPTION_NAMES, products);
    productClosure(options.products, PRODUCT_CATALOG);
    // --tile-points 0 never tiles; unset, clouds of DEFAULT_TILED_FROM_POINTS or more are tiled.
    const tilePoints = values['tile-points'] === '0' ? 0 : positiveNumber(values['tile-points'], 'tile-points');
    const tileBuffer = positiveNumber(values['tile-buffer'], 'tile-buffer');
    const tileThreads = positiveNumber(values['tile-threads'], 'tile-threads');
    if (tileThreads !== undefined && !Number.isInteger(tileThreads)) {
      throw new InvalidInput('tile-threads', `--tile-threads must be a whole number of threads, got "${tileThreads}"`);
    }
    const runIn = runInput(input, values);
    const { runProducts, writeManifest } = await import('../products/run-products.js');
    const tiledDir = path.join(outDir, '.tiled');
    // The tiles' classes are read by the classification product during the run, then dropped.
    const outcome = await runProducts({
      input: runIn,
      options,
      outDir,
      language: parseLang(values.lang),
      progress: (f, step) => out(`${Math.round(f * 100)}% ${step}`),
      hooks: {
        // --tile-points N: the classification over tiles with overlap buffers (engine/src/tiled), --tile-threads
        // of them at once (default: 2, or 1 on a one-core machine), each in a worker thread. Unset: a cloud of
        // DEFAULT_TILED_FROM_POINTS points or more is cut into tiles of DEFAULT_TILE_POINTS, as a job cuts it.
        input: async (product) => {
          if (product.id !== 'classify' || tilePoints === 0) return undefined;
          const { tilePointsFor } = await import('../tiled/plan.js');
          const { openPointCloud } = await import('../readers/index.js');
          const reader = await openPointCloud(runIn.path, runIn.epsg === undefined ? {} : { epsg: runIn.epsg });
          const points = reader.header.pointCount;
          await reader.close();
          const perTile = tilePointsFor(points, tilePoints);
          if (perTile === undefined) return undefined;
          const { classifyTiledLocally } = await import('../tiled/tiled-classify.js');
          const { file, tiles } = await classifyTiledLocally(
            runIn.path,
            tiledDir,
            {
              pointsPerTile: perTile,
              vendorWireClasses: options.vendorWireClasses,
              ...(tileBuffer !== undefined ? { bufferMetres: tileBuffer } : {}),
              ...(runIn.epsg !== undefined ? { epsg: runIn.epsg } : {}),
            },
            { progress: (f, step) => out(`classify in tiles: ${Math.round(f * 100)}% ${step ?? ''}`.trim()) },
            tileThreads ?? Math.min(2, availableParallelism()),
          );
          out(`classified in ${tiles} tiles`);
          return { classes: file };
        },
      },
    }).finally(() => rm(tiledDir, { recursive: true, force: true }));
    const quality = outcome.runs.find((r) => r.id === 'quality' && r.status === 'READY')?.figures;
    if (typeof quality?.kappa === 'number') out(`ground vs input: kappa ${quality.kappa.toFixed(3)}`);
    return report(outcome, outDir, await writeManifest(outDir, outcome.manifest), out);
  },
};

/** One verb per product of the registry, then the verbs making a family of products. */
export const productVerbs: CliVerb[] = [
  ...PRODUCT_CATALOG.map(productVerb),
  productsVerb(
    'trees',
    ['chm', 'tree-tops', 'tree-crowns', 'forest-inventory'],
    'forestry: canopy height model, tree tops, crowns (--crown-shape NARROW|WIDE) and the forest inventory CSV',
  ),
  productsVerb(
    'powerlines',
    ['power-lines', 'power-line-buffers', 'vegetation-risk', 'tree-fall-risk'],
    'power lines: conductors and towers, buffer zones, vegetation risk (--clearance-height-cm) and tree-fall risk',
  ),
];
