import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../core/errors.js';
import { defineProduct, type ProductDefinition } from '../core/product.js';
import { openPointCloud, POINT_CLOUD_FORMATS } from '../readers/index.js';
import { productClosure as catalogClosure, PRODUCT_CATALOG } from './catalog.js';
import { DEFAULT_PROCESSING_OPTIONS, processingOptionsSchema } from './options.js';
import { ASSET_TYPES, LAYER_OF_ASSET, PRODUCTS } from './registry.js';
import { byLongestChain, planRun, productClosure, runProducts } from './run-products.js';

/** A product writing `<id>.txt` holding its needs' values plus one; `fail` makes it throw bad input. */
function fake(id: string, needs: string[], runs: string[], fail = false): ProductDefinition<number> {
  return defineProduct<number>({
    id,
    assetType: id.toUpperCase(),
    title: id,
    summary: id,
    layer: 'VECTOR',
    display: 'vector',
    needs,
    options: [],
    weight: 1,
    async run(ctx) {
      runs.push(id);
      if (fail) throw new InvalidInput(id, 'refused');
      const value = needs.reduce((s, n) => s + ctx.need<number>(n), 1);
      const file = path.join(ctx.workDir, `${id}.txt`);
      await writeFile(file, String(value));
      return {
        files: [{ path: file, format: 'CSV', extension: 'txt', epsg: null, count: value }],
        value,
      };
    },
    restore: {
      format: 'CSV',
      async load(files) {
        return Number(await readFile(files[0]!.path, 'utf8'));
      },
    },
  });
}

function registry(runs: string[]) {
  return [
    fake('a', [], runs),
    fake('b', ['a'], runs),
    fake('c', ['b', 'a'], runs),
    fake('d', ['a'], runs, true),
    fake('e', ['d'], runs),
  ];
}

describe('product catalog', () => {
  it('describes every product of the registry, in its order, as the product itself does', () => {
    expect(PRODUCT_CATALOG.map((p) => p.id)).toEqual(PRODUCTS.map((p) => p.id));
    for (const [i, entry] of PRODUCT_CATALOG.entries()) {
      const product = PRODUCTS[i]!;
      const { restoreFormat, ...described } = entry;
      for (const [key, value] of Object.entries(described)) {
        expect(product[key as keyof typeof product], `${product.id}.${key}`).toEqual(value);
      }
      expect(restoreFormat, `${product.id} restore format`).toBe(product.restore?.format);
    }
  });

  it('gives the CLI the same closure as the registry', () => {
    for (const id of [undefined, ['report'], ['tree-fall-risk', 'contours-major'], ['hillshade']]) {
      expect(catalogClosure(id, PRODUCT_CATALOG).map((p) => p.id)).toEqual(productClosure(id).map((p) => p.id));
    }
    expect(catalogClosure(['hillshade'], PRODUCT_CATALOG).map((p) => p.id)).toEqual(['classify', 'dtm', 'hillshade']);
  });
});

describe('product runner', () => {
  it('orders a selection after its prerequisites and refuses unknown ids', () => {
    const reg = registry([]);
    expect(productClosure(['c'], reg).map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect(productClosure(undefined, reg).map((p) => p.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(() => productClosure(['x'], reg)).toThrow(/unknown product "x"/);
  });

  it('plans only what is not done, restoring done needs', () => {
    const closure = productClosure(undefined, registry([]));
    const plan = planRun(closure, undefined, new Set(['a', 'b']));
    expect([...plan.make].sort()).toEqual(['c', 'd', 'e']);
    expect([...plan.restore].sort()).toEqual(['a', 'b']);
    const none = planRun(closure, undefined, new Set(['a', 'b', 'c', 'd', 'e']));
    expect(none.make.size + none.restore.size).toBe(0);
  });

  it('runs the DAG, fails the dependants of a failed product and writes a manifest', async () => {
    const runs: string[] = [];
    const outDir = await mkdtemp(path.join(tmpdir(), 'nuage-run-'));
    const failed: string[] = [];
    const outcome = await runProducts({
      input: { path: '/nowhere/in.las' },
      options: DEFAULT_PROCESSING_OPTIONS,
      outDir,
      registry: registry(runs),
      hooks: { failed: async (p) => void failed.push(p.id) },
    });
    expect(runs).toEqual(['a', 'b', 'c', 'd']);
    expect(outcome.runs.map((r) => [r.id, r.status, r.error?.code])).toEqual([
      ['a', 'READY', undefined],
      ['b', 'READY', undefined],
      ['c', 'READY', undefined],
      ['d', 'ERROR', 'INVALID_INPUT'],
      ['e', 'ERROR', 'DEPENDENCY_FAILED'],
    ]);
    expect(failed).toEqual(['d', 'e']);
    // c = 1 + b + a = 1 + 2 + 1.
    expect(outcome.manifest.artifacts.find((a) => a.type === 'C')).toEqual({
      type: 'C',
      path: 'c/c.txt',
      format: 'CSV',
      epsg: null,
      count: 4,
      bytes: 1,
    });
    expect(outcome.manifest.input).toBe('in.las');
  });

  it('resumes: products an earlier run made are restored, not made again', async () => {
    const runs: string[] = [];
    const outDir = await mkdtemp(path.join(tmpdir(), 'nuage-resume-'));
    const earlier = path.join(outDir, 'earlier-b.txt');
    await writeFile(earlier, '10');
    const outcome = await runProducts({
      input: { path: 'in.las' },
      options: processingOptionsSchema.parse({ products: ['c'] }),
      outDir,
      registry: registry(runs),
      hooks: {
        done: async (p) => (p.id === 'b' ? async () => [{ path: earlier, extension: 'txt' }] : null),
      },
    });
    // a is still made (c needs it, no earlier run made it); b is read back from its file.
    expect(runs).toEqual(['a', 'c']);
    expect(outcome.manifest.artifacts.find((a) => a.type === 'C')?.count).toBe(12);
  });

  it('stops at once when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      runProducts({
        input: { path: 'in.las' },
        options: DEFAULT_PROCESSING_OPTIONS,
        outDir: await mkdtemp(path.join(tmpdir(), 'nuage-cancel-')),
        registry: registry([]),
        signal: controller.signal,
      }),
    ).rejects.toThrow(/cancelled/);
  });
});

describe('product registry', () => {
  it('lists each product once, with known needs and options, POINT_CLOUD first', () => {
    const ids = PRODUCTS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ASSET_TYPES).size).toBe(ASSET_TYPES.length);
    expect(ASSET_TYPES[0]).toBe('POINT_CLOUD');
    for (const p of PRODUCTS) {
      for (const n of p.needs) expect(ids, `${p.id} needs ${n}`).toContain(n);
      for (const o of p.options) expect(Object.keys(DEFAULT_PROCESSING_OPTIONS), `${p.id} reads ${o}`).toContain(o);
      expect(LAYER_OF_ASSET[p.assetType]).toBe(p.layer);
      expect(p.id).toMatch(/^[a-z][a-z0-9-]*$/);
    }
    expect(() => productClosure(undefined)).not.toThrow();
  });

  it('validates options with the spec §5 ranges and the major > minor rule', () => {
    expect(DEFAULT_PROCESSING_OPTIONS).toMatchObject({
      dtmResolutionCm: 50,
      contourMinorCm: 50,
      contourMajorCm: 250,
      gridResolutionCm: 1000,
      powerLineBuffersCm: [300, 600, 900],
      crownShape: 'NARROW',
    });
    const issue = (o: unknown) => {
      const r = processingOptionsSchema.safeParse(o);
      return r.success ? null : `${r.error.issues[0]!.path.join('.')}: ${r.error.issues[0]!.message}`;
    };
    expect(issue({ dtmResolutionCm: 19 })).toBe('dtmResolutionCm: dtmResolutionCm must be between 20 and 3000 cm');
    expect(issue({ contourMinorCm: 100, contourMajorCm: 100 })).toMatch(/^contourMajorCm: .*greater than the minor/);
    expect(issue({ powerLineBuffersCm: [] })).toMatch(/^powerLineBuffersCm: /);
    expect(issue({ crownShape: 'ROUND' })).toMatch(/^crownShape: .*NARROW, WIDE/);
    expect(issue({ dtmResolution: 50 })).toMatch(/dtmResolution/);
    expect(issue({ treeFallHeightBufferCm: 10, clearanceHeightCm: 10000 })).toBeNull();
  });
});

describe.runIf(hasRealData())('point-cloud formats', () => {
  it('picks the reader by the header, not the file name', async () => {
    for (const [file, id] of [
      ['autzen_trim.las', 'readers.las'],
      ['fusa.laz', 'readers.laz'],
    ] as const) {
      const reader = await openPointCloud(realFile(file));
      const format = POINT_CLOUD_FORMATS.find((f) => f.accepts(reader.header));
      expect(format?.descriptor.id, file).toBe(id);
      await reader.close();
    }
  });
});

describe('byLongestChain', () => {
  const product = (id: string, weight: number, needs: string[] = [], extra: Partial<ProductDefinition> = {}) =>
    ({ id, weight, needs, ...extra }) as unknown as ProductDefinition;

  it('puts first the product with the most work after it, the run order among equals', () => {
    // a (1) → c (10) → e (1); b (2) → d (1); f reads every product before it (artifacts).
    const run = [
      product('a', 1),
      product('b', 2),
      product('c', 10, ['a']),
      product('d', 1, [], { uses: ['b'] }),
      product('e', 1, ['c']),
      product('f', 1, [], { readsArtifacts: true }),
    ];
    const order = new Map(run.map((p, i) => [p.id, i]));
    // Chains: f 1, e 2, d 1 (f after it: 2), c 10 + 2 = 12, b 2 + max(d 2, f 1) = 4, a 1 + 12 = 13.
    expect(byLongestChain(run, order).map((p) => p.id)).toEqual(['a', 'c', 'b', 'd', 'e', 'f']);
  });
});
