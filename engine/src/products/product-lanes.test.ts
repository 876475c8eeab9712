import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Cancelled, EngineError, InvalidInput } from '../core/errors.js';
import { DEFAULT_PROCESSING_OPTIONS } from './options.js';
import { reviveError, shareTypedArrays } from './product-lanes.js';
import { serializeError } from './product-thread.task.js';
import { type RunHooks, runProducts } from './run-products.js';

describe('values handed to lane threads', () => {
  it('moves large typed arrays to shared memory once, in place, with the same contents', () => {
    const x = Float64Array.from({ length: 20_000 }, (_, i) => i * 0.5);
    const classes = new Uint8Array(100_000).fill(2);
    const small = new Uint16Array(10).fill(7);
    const cloud = { x, classes, small, count: 20_000 };
    const value: { cloud: typeof cloud; again: typeof cloud; list: unknown[]; self?: unknown } = {
      cloud,
      again: cloud,
      list: [x.subarray(0, 10_000)],
    };
    value.self = value; // a cycle is walked once
    shareTypedArrays(value);
    expect(cloud.x).not.toBe(x);
    expect(cloud.x.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(cloud.x.subarray(0, 5))).toEqual([0, 0.5, 1, 1.5, 2]);
    expect(cloud.x[19_999]).toBe(9999.5);
    expect(cloud.classes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(cloud.classes.every((c) => c === 2)).toBe(true);
    // Below 64 kB a copy costs less than sharing; a view is copied alone, not its whole buffer.
    expect(cloud.small).toBe(small);
    const view = value.list[0] as Float64Array;
    expect(view.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(view.length).toBe(10_000);
    expect(view.buffer.byteLength).toBe(80_000);
    // Already shared: left as it is.
    const shared = cloud.x;
    shareTypedArrays(value);
    expect(cloud.x).toBe(shared);
  });

  it('leaves objects of classes alone', () => {
    class Holder {
      data = new Float32Array(100_000);
    }
    const h = new Holder();
    const data = h.data;
    shareTypedArrays({ h });
    expect(h.data).toBe(data);
  });

  it('brings an error back as its engine class, with its code and fields', () => {
    const back = reviveError(serializeError(new InvalidInput('header.scale', 'negative scale', 131, -0.01)));
    expect(back).toBeInstanceOf(InvalidInput);
    expect(back).toBeInstanceOf(EngineError);
    expect(back).toMatchObject({
      name: 'InvalidInput',
      code: 'INVALID_INPUT',
      field: 'header.scale',
      offset: 131,
      value: -0.01,
    });
    expect(back.message).toBe('header.scale (byte 131): negative scale');
    expect(reviveError(serializeError(new Cancelled()))).toBeInstanceOf(Cancelled);
    const plain = reviveError(serializeError(new TypeError('x is undefined')));
    expect(plain).toBeInstanceOf(Error);
    expect(plain.name).toBe('TypeError');
    expect(plain.message).toBe('x is undefined');
  });
});

describe.runIf(hasRealData())('products in lane threads (Megaplot.laz)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const run = async (
    lanes: number,
    signal?: AbortSignal,
    progress?: (f: number, step: string) => void,
    values?: Map<string, unknown>,
    hooks?: RunHooks,
    products = ['contours', 'contours-minor', 'slope', 'tree-crowns', 'buildings', 'report'],
  ) => {
    const outDir = await mkdtemp(path.join(tmpdir(), `nuage-lanes-${lanes}-`));
    dirs.push(outDir);
    return runProducts({
      input: { path: realFile('Megaplot.laz') },
      options: {
        ...DEFAULT_PROCESSING_OPTIONS,
        products,
      },
      outDir,
      lanes,
      ...(signal ? { signal } : {}),
      ...(progress ? { progress } : {}),
      ...(values ? { hooks: { finished: async (p, r) => void values.set(p.id, r.value) } } : {}),
      ...(hooks ? { hooks } : {}),
    });
  };

  it('make the same products, in the same order, as one product at a time on this thread', async () => {
    const inlineValues = new Map<string, unknown>();
    const lanedValues = new Map<string, unknown>();
    const inline = await run(0, undefined, undefined, inlineValues);
    const inlineDir = dirs[dirs.length - 1]!;
    const laned = await run(2, undefined, undefined, lanedValues);
    const lanedDir = dirs[dirs.length - 1]!;
    // The `finished` hook reads each product's value as the product made it, from a lane too (crossed packed,
    // read unpacked), the last products' included, which no product after them reads.
    for (const id of ['contours', 'tree-crowns', 'slope', 'report']) {
      expect(lanedValues.has(id), id).toBe(inlineValues.has(id));
      // The same but for the run's folder, in the paths of the files written.
      const json = (v: unknown, dir: string) => JSON.stringify(v)?.replaceAll(dir, 'OUT');
      expect(json(lanedValues.get(id), lanedDir), id).toBe(json(inlineValues.get(id), inlineDir));
    }
    expect((inlineValues.get('tree-crowns') as { crowns: unknown[] }).crowns.length).toBeGreaterThan(0);
    const ids = inline.runs.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(['classify', 'dtm', 'contours', 'slope', 'tree-crowns', 'report']));
    expect(laned.runs.map((r) => [r.id, r.status])).toEqual(inline.runs.map((r) => [r.id, r.status]));
    expect(inline.runs.every((r) => r.status === 'READY')).toBe(true);
    // Every product but the classification ran in a lane thread, and both lanes were used.
    expect(inline.runs.every((r) => r.thread === undefined)).toBe(true);
    const threads = laned.runs.filter((r) => r.id !== 'classify').map((r) => r.thread);
    expect(threads.every((t) => typeof t === 'number' && t > 0)).toBe(true);
    expect(new Set(threads).size).toBe(2);
    expect(laned.runs.find((r) => r.id === 'classify')!.thread).toBeUndefined();
    // The same files: paths, counts and sizes (the report's PDF differs only in its creation date, not in size).
    const files = (m: typeof inline) => m.manifest.artifacts.map((a) => [a.type, a.path, a.format, a.count, a.bytes]);
    expect(files(laned)).toEqual(files(inline));
    // The report, which reads what every product before it wrote, listed them all.
    expect(laned.runs.find((r) => r.id === 'report')!.figures).toEqual(
      inline.runs.find((r) => r.id === 'report')!.figures,
    );
  }, 240_000);

  it('hand a hook that reads no value the features only (the processing job), not values no product reads', async () => {
    const seen = new Map<string, { value: unknown; features: number }>();
    const hooks = (readsValue: boolean): RunHooks => ({
      finishedReadsValue: readsValue,
      finished: async (p, r) => void seen.set(p.id, { value: r.value, features: [...(r.features?.() ?? [])].length }),
    });
    // Without the report, nothing reads the crowns' value: a lane keeps it from a hook that reads no value...
    const laned = await run(2, undefined, undefined, undefined, hooks(false), ['contours', 'tree-crowns']);
    expect(laned.runs.every((r) => r.status === 'READY')).toBe(true);
    expect(seen.get('tree-crowns')!.value).toBeUndefined();
    // ...but not the features the job stores in PostGIS.
    const crownFeatures = seen.get('tree-crowns')!.features;
    expect(crownFeatures).toBeGreaterThan(0);
    // The tree tops' value, which the crowns read, crossed all the same.
    expect(seen.get('tree-tops')!.value).toBeDefined();
    // A hook that reads values gets it, and the same features.
    seen.clear();
    await run(2, undefined, undefined, undefined, hooks(true), ['contours', 'tree-crowns']);
    expect((seen.get('tree-crowns')!.value as { crowns: unknown[] }).crowns.length).toBeGreaterThan(0);
    expect(seen.get('tree-crowns')!.features).toBe(crownFeatures);
  }, 240_000);

  it('stops at a cancel reaching products in lane threads', async () => {
    const controller = new AbortController();
    const steps = new Set<string>();
    const outcome = run(2, controller.signal, (_, step) => {
      steps.add(step);
      // Cancelled while the first products after the terrain model run in their threads.
      if (step === 'contours' || step === 'slope') controller.abort();
    });
    await expect(outcome).rejects.toBeInstanceOf(Cancelled);
    expect(steps.has('report')).toBe(false);
  }, 120_000);
});
