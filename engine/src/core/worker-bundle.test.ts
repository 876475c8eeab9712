import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { LAZ_WARM_UP_CHUNKS } from '../tiler/laz-warm-up-chunks.js';
import { workerExecArgv } from './worker-bundle.mjs';

const BUNDLE_MODULE = new URL('./worker-bundle.mjs', import.meta.url).href;

interface Loaded {
  mode: 'bundle' | 'tsx';
  built?: boolean;
  bundle?: string;
  reason?: string;
  exports: Record<string, unknown>[];
  error?: string;
}

/** importCompiled run in a fresh worker thread: plain Node, as in a tiler worker (no vitest transform, no tsx). */
function loadInWorker(
  baseUrl: string,
  specifiers: string[],
  options: { cacheDir?: string; env?: Record<string, string> },
): Promise<Loaded> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker-bundle.test-worker.mjs', import.meta.url), {
      workerData: { baseUrl, specifiers, options },
    });
    worker.once('message', (m: Loaded) => {
      void worker.terminate();
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
  });
}

const root = mkdtempSync(path.join(os.tmpdir(), 'nuage-worker-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A small TypeScript module tree: a.ts imports b.ts, has types and reads import.meta. */
function sourceTree(name: string): { dir: string; baseUrl: string; setB: (value: number) => void } {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  // ES modules, as every package of the workspace.
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(
    path.join(dir, 'a.ts'),
    [
      "import { b } from './b.js';",
      'interface Shape { value: string }',
      "const shape: Shape = { value: 'a+' + b };",
      'export const value: string = shape.value;',
      'export const url: string = import.meta.url;',
      "export const sibling: string = new URL('./data.txt', import.meta.url).href;",
      'export const dirname: string = import.meta.dirname;',
      "export const text: string = 'import.meta.url stays text';",
    ].join('\n'),
  );
  const setB = (value: number) => writeFileSync(path.join(dir, 'b.ts'), `export const b: number = ${value};\n`);
  setB(1);
  return { dir, baseUrl: pathToFileURL(path.join(dir, 'entry.mjs')).href, setB };
}

describe('importCompiled', () => {
  it('builds a bundle on first use, serves it while the sources are unchanged, rebuilds after an edit', async () => {
    const { dir, baseUrl, setB } = sourceTree('edit');
    const cacheDir = path.join(root, 'cache-edit');
    const first = await loadInWorker(baseUrl, ['./a.ts'], { cacheDir });
    expect(first.mode).toBe('bundle');
    expect(first.built).toBe(true);
    // A folder of its own in the cache, named by the entries and the contents.
    expect(path.dirname(path.dirname(first.bundle!))).toBe(cacheDir);
    expect(path.basename(path.dirname(first.bundle!))).toMatch(/^a-[0-9a-f]{12}-[0-9a-f]{16}$/);
    expect(path.basename(first.bundle!)).toBe('entry.mjs');
    expect(first.exports[0]).toEqual({
      value: 'a+1',
      // import.meta is the source file's, not the bundle's: resources resolve from the source tree.
      url: pathToFileURL(path.join(dir, 'a.ts')).href,
      sibling: pathToFileURL(path.join(dir, 'data.txt')).href,
      dirname: dir,
      text: 'import.meta.url stays text',
    });
    // The bundle is plain JavaScript (no type left) and names its source map.
    const js = readFileSync(first.bundle!, 'utf8');
    expect(js).not.toContain('interface Shape');
    expect(js).toMatch(/\/\/# sourceMappingURL=entry\.mjs\.map\n$/);

    const again = await loadInWorker(baseUrl, ['./a.ts'], { cacheDir });
    expect(again).toMatchObject({ mode: 'bundle', built: false, bundle: first.bundle });
    expect(again.exports[0]!.value).toBe('a+1');

    // An edit to a file the entry imports is never served stale.
    setB(2);
    const edited = await loadInWorker(baseUrl, ['./a.ts'], { cacheDir });
    expect(edited).toMatchObject({ mode: 'bundle', built: true });
    expect(edited.bundle).not.toBe(first.bundle);
    expect(edited.exports[0]!.value).toBe('a+2');
    // Back to the first contents: the bundle is rebuilt again (the digest is of the contents, not of dates).
    setB(1);
    const back = await loadInWorker(baseUrl, ['./a.ts'], { cacheDir });
    expect(back).toMatchObject({ mode: 'bundle', built: true });
    expect(back.exports[0]!.value).toBe('a+1');
  });

  it('loads several entries as one bundle, in order', async () => {
    const { baseUrl } = sourceTree('several');
    const cacheDir = path.join(root, 'cache-several');
    const loaded = await loadInWorker(baseUrl, ['./b.ts', './a.ts'], { cacheDir });
    expect(loaded.mode).toBe('bundle');
    expect(loaded.exports.map((e) => Object.keys(e).sort())).toEqual([
      ['b'],
      ['dirname', 'sibling', 'text', 'url', 'value'],
    ]);
    expect(loaded.exports[0]!.b).toBe(1);
  });

  it('puts what a source imports with import() in a chunk, loaded (packages and all) when the import runs', async () => {
    const { dir, baseUrl } = sourceTree('lazy');
    const pkg = path.join(dir, 'node_modules', 'fake-late');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), '{"name":"fake-late","type":"module","exports":"./index.js"}');
    writeFileSync(path.join(pkg, 'index.js'), 'globalThis.__fakeLateLoaded = true;\nexport const late = 7;\n');
    writeFileSync(
      path.join(dir, 'later.ts'),
      [
        "import { late } from 'fake-late';",
        "export const marker: string = 'LATER_MODULE_TEXT';",
        'export const value: number = late * 6;',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'lazy.ts'),
      [
        'const g = globalThis as { __fakeLateLoaded?: boolean };',
        'export const loadedBefore: boolean = g.__fakeLateLoaded === true;',
        "const later = await import('./later.js');",
        'export const loadedAfter: boolean = g.__fakeLateLoaded === true;',
        'export const value: number = later.value;',
      ].join('\n'),
    );
    const loaded = await loadInWorker(baseUrl, ['./lazy.ts'], {
      cacheDir: path.join(dir, 'node_modules', '.cache', 'b'),
    });
    expect(loaded).toMatchObject({ mode: 'bundle', built: true });
    expect(loaded.exports[0]).toEqual({ loadedBefore: false, loadedAfter: true, value: 42 });
    // The entry holds neither the later source nor its package's import; a chunk beside it does.
    const folder = path.dirname(loaded.bundle!);
    expect(readFileSync(loaded.bundle!, 'utf8')).not.toMatch(/LATER_MODULE_TEXT|fake-late/);
    const chunks = readdirSync(folder).filter((f) => f.startsWith('chunk-') && f.endsWith('.mjs'));
    expect(chunks.filter((f) => readFileSync(path.join(folder, f), 'utf8').includes('LATER_MODULE_TEXT'))).toHaveLength(
      1,
    );
    expect(readdirSync(folder)).toContain(`${chunks[0]}.map`);
  });

  it('falls back to tsx when the bundle cannot be built, and when NUAGE_BUNDLE=0', async () => {
    const { dir, baseUrl } = sourceTree('fallback');
    // A cache folder below a regular file cannot be created.
    writeFileSync(path.join(root, 'not-a-folder'), '');
    const unbuildable = await loadInWorker(baseUrl, ['./a.ts'], { cacheDir: path.join(root, 'not-a-folder', 'cache') });
    expect(unbuildable.mode).toBe('tsx');
    expect(unbuildable.reason).toMatch(/^bundle not built: /);
    expect(unbuildable.exports[0]).toMatchObject({ value: 'a+1', url: pathToFileURL(path.join(dir, 'a.ts')).href });

    // import.meta.resolve would resolve from the bundle, not from the source: not bundled.
    writeFileSync(path.join(dir, 'd.ts'), "export const here: string = import.meta.resolve('./b.js');\n");
    const meta = await loadInWorker(baseUrl, ['./d.ts'], { cacheDir: path.join(root, 'cache-meta') });
    expect(meta.mode).toBe('tsx');
    expect(meta.reason).toMatch(/^bundle not built: .*import\.meta property other than url, dirname, filename/s);
    expect(meta.exports[0]!.here).toBe(pathToFileURL(path.join(dir, 'b.ts')).href);

    const off = await loadInWorker(baseUrl, ['./a.ts'], {
      cacheDir: path.join(root, 'cache-off'),
      env: { NUAGE_BUNDLE: '0' },
    });
    expect(off).toMatchObject({ mode: 'tsx', reason: 'NUAGE_BUNDLE=0' });
    expect(off.exports[0]!.value).toBe('a+1');
  });

  it('leaves packages external: they resolve from a cache below node_modules, else it falls back to tsx', async () => {
    const { dir, baseUrl } = sourceTree('package');
    const esm = path.join(dir, 'node_modules', 'fake-esm');
    mkdirSync(esm, { recursive: true });
    writeFileSync(path.join(esm, 'package.json'), '{"name":"fake-esm","type":"module","exports":"./index.js"}');
    writeFileSync(path.join(esm, 'index.js'), 'export const answer = 42;\n');
    // CommonJS compiled from ESM (__esModule set): Node's default import is still module.exports.
    const cjs = path.join(dir, 'node_modules', 'fake-cjs');
    mkdirSync(cjs, { recursive: true });
    writeFileSync(path.join(cjs, 'package.json'), '{"name":"fake-cjs","main":"lib/index.js"}');
    mkdirSync(path.join(cjs, 'lib'));
    writeFileSync(
      path.join(cjs, 'lib', 'index.js'),
      "Object.defineProperty(exports, '__esModule', { value: true });\nexports.half = 21;\nexports.default = 'not the default';\n",
    );
    writeFileSync(
      path.join(dir, 'c.ts'),
      [
        "import { answer } from 'fake-esm';",
        "import cjs, { half } from 'fake-cjs';",
        'export const doubled: number = answer * 2;',
        // The default import is module.exports (not exports.default): its `half` is 21.
        'export const halves: number[] = [half, (cjs as unknown as { half: number }).half];',
      ].join('\n'),
    );
    const expected = { doubled: 84, halves: [21, 21] };
    // Where the engine keeps its cache: below the node_modules that holds the packages.
    const inside = await loadInWorker(baseUrl, ['./c.ts'], { cacheDir: path.join(dir, 'node_modules', '.cache', 'b') });
    expect(inside).toMatchObject({ mode: 'bundle', built: true });
    expect(inside.exports[0]).toEqual(expected);
    const js = readFileSync(inside.bundle!, 'utf8');
    expect(js).toContain('from "fake-esm"');
    // The CommonJS package is required from the importing source (Node skips scanning it for export names).
    expect(js).toContain(`(${JSON.stringify(pathToFileURL(path.join(dir, 'c.ts')).href)})("fake-cjs")`);
    // Elsewhere the packages do not resolve from the bundle: tsx runs the sources instead.
    const outside = await loadInWorker(baseUrl, ['./c.ts'], { cacheDir: path.join(root, 'cache-package') });
    expect(outside.mode).toBe('tsx');
    expect(outside.reason).toMatch(/^bundle not loaded: .*fake-esm/);
    expect(outside.exports[0]).toEqual(expected);
  });
});

describe('workerExecArgv', () => {
  it("drops tsx's preload flags, in every spelling, and keeps the others", () => {
    expect(
      workerExecArgv([
        '--require',
        '/repo/node_modules/tsx/dist/preflight.cjs',
        '--import',
        'file:///repo/node_modules/tsx/dist/loader.mjs',
      ]),
    ).toEqual([]);
    expect(
      workerExecArgv(['--import', 'tsx', '--max-old-space-size=4096', '--import=tsx/esm', '-r', './setup.cjs']),
    ).toEqual(['--max-old-space-size=4096', '-r', './setup.cjs']);
    expect(workerExecArgv(['--conditions', 'development', '--import', './tsx-free.mjs'])).toEqual([
      '--conditions',
      'development',
      '--import',
      './tsx-free.mjs',
    ]);
  });
});

describe('tiler.worker.mjs', () => {
  /** Starts the real tiler worker with NUAGE_BUNDLE_DEBUG=1 and runs one LAZ warm-up task through it. */
  async function runTilerWorker(env: Record<string, string>): Promise<{ points: number; log: string }> {
    const worker = new Worker(new URL('../tiler/tiler.worker.mjs', import.meta.url), {
      env: { ...process.env, ...env, NUAGE_BUNDLE_DEBUG: '1' },
      stderr: true,
    });
    let log = '';
    worker.stderr.on('data', (d: Buffer) => {
      log += d.toString();
    });
    try {
      const chunks = LAZ_WARM_UP_CHUNKS.map((c) => ({ ...c, bytes: Buffer.from(c.base64, 'base64') }));
      const reply = await new Promise<{ reply?: { points: number }; error?: { message: string } }>(
        (resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage({ id: 0, task: { op: 'warm-up-laz', chunks, rounds: 1 } });
        },
      );
      if (!reply.reply) throw new Error(reply.error?.message ?? 'no reply');
      return { points: reply.reply.points, log };
    } finally {
      await worker.terminate();
    }
  }

  it('runs the tiler from its bundle, and through tsx when bundles are off', async () => {
    const bundled = await runTilerWorker({});
    expect(bundled.points).toBe(2000);
    expect(bundled.log).toMatch(/tiler\.worker\.ts from (new|cached) bundle .*nuage-bundles/);
    const tsx = await runTilerWorker({ NUAGE_BUNDLE: '0' });
    expect(tsx.points).toBe(2000);
    expect(tsx.log).toMatch(/tiler\.worker\.ts through tsx \(NUAGE_BUNDLE=0\)/);
  });

  it('runs the `nuage` command from its bundle (this file is part of it), not through tsx', () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/nuage.mjs');
    const result = spawnSync(process.execPath, [bin, '--help'], {
      encoding: 'utf8',
      env: { ...process.env, NUAGE_BUNDLE_DEBUG: '1' },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: nuage <verb>/);
    expect(result.stderr).toMatch(/cli\.ts from (new|cached) bundle .*nuage-bundles/);
  });
});

describe('threadExecArgv', () => {
  /** threadExecArgv() in a process started with `flags`, and whether a thread started with it runs. */
  function inProcess(flags: string[]): { execArgv: string[] | null; ran: boolean } {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nuage-thread-argv-'));
    try {
      const script = path.join(dir, 'probe.mjs');
      writeFileSync(
        script,
        `import { Worker } from 'node:worker_threads';
import { threadExecArgv } from ${JSON.stringify(BUNDLE_MODULE)};
const execArgv = threadExecArgv();
const worker = new Worker('require("node:worker_threads").parentPort.postMessage(process.execArgv)', { eval: true, execArgv });
worker.once('message', (inner) => {
  console.log(JSON.stringify({ execArgv: execArgv ?? null, inner }));
  worker.terminate();
});
`,
      );
      const out = JSON.parse(execFileSync(process.execPath, [...flags, script], { encoding: 'utf8' }));
      return { execArgv: out.execArgv, ran: Array.isArray(out.inner) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('drops tsx when Node accepts the rest, else lets the thread inherit every flag', () => {
    expect(inProcess(['--import', 'tsx', '--conditions', 'development'])).toEqual({
      execArgv: ['--conditions', 'development'],
      ran: true,
    });
    // Refused in a worker's execArgv (V8 flag): inherited as before, tsx included.
    expect(inProcess(['--import', 'tsx', '--max-old-space-size=4096'])).toEqual({ execArgv: null, ran: true });
    // Nothing to drop.
    expect(inProcess(['--trace-warnings'])).toEqual({ execArgv: null, ran: true });
  });
});
