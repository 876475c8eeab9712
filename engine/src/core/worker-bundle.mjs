// Loads TypeScript modules in a thread that has no TypeScript loader (worker
// threads, the `nuage` command) as plain JavaScript: one esbuild bundle per
// entry list, built on first use into a cache and rebuilt whenever a source
// file it was built from changes. Registering tsx and transpiling the sources
// at load costs a fresh worker thread about 0.3 CPU-second (starting two tiler
// workers in a plain Node process: 0.75 CPU-s through tsx, 0.14 from a cached
// bundle, 0.37 when they build it). Plain JavaScript because it runs before
// any loader; typed in worker-bundle.d.mts.
//
// - Never stale: the cache records every file the bundle was built from and a
//   digest of their contents (and of this file, which holds the build options);
//   each load re-reads and re-hashes them (about 1 ms per 100 kB) and rebuilds on any difference.
// - `import.meta.url`, `.dirname` and `.filename` are replaced in each source
//   file by that file's own values, so resources and other workers resolve
//   from the source tree, as they do under tsx.
// - Packages stay external (resolved by Node at run time, so the cache sits in
//   engine/node_modules/.cache where they resolve from), except the
//   workspace's own TypeScript packages (@nuage/*), which are bundled.
//   CommonJS packages are require()d (see sourcesPlugin).
// - Falls back to tsx when the bundle cannot be built or loaded (no esbuild,
//   read-only cache folder, a source esbuild cannot take...).
//
// Environment: NUAGE_BUNDLE=0 always uses tsx; NUAGE_BUNDLE_DIR moves the
// cache (it must sit below a node_modules that holds the engine's packages);
// NUAGE_BUNDLE_DEBUG=1 prints on stderr how each load went (bundle built,
// cached, or tsx and why).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';

const SELF = fileURLToPath(import.meta.url);
const DEFAULT_CACHE_DIR = path.resolve(path.dirname(SELF), '../../node_modules/.cache/nuage-bundles');
/** Manifest format; part of every digest. */
const FORMAT = 2;
/** Bundles kept per entry list (older ones are deleted once they are this many and 10 minutes old). */
const KEEP = 3;
const PRUNE_AGE_MS = 10 * 60_000;
/** What the sources are compiled as (tsconfig.base.json, the options esbuild acts on). */
const TSCONFIG_RAW = {
  compilerOptions: { target: 'ES2023', verbatimModuleSyntax: true, useDefineForClassFields: true },
};
const LOADERS = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
  '.json': 'json',
};
/** Errors of import() raised while linking a bundle (before any of its code ran): safe to retry with tsx. */
const LINK_ERRORS = new Set([
  'ERR_MODULE_NOT_FOUND',
  'ERR_PACKAGE_PATH_NOT_EXPORTED',
  'ERR_PACKAGE_IMPORT_NOT_DEFINED',
  'ERR_UNSUPPORTED_DIR_IMPORT',
  'ERR_INVALID_MODULE_SPECIFIER',
  'ERR_UNKNOWN_FILE_EXTENSION',
]);

// Joined at run time so this file's own text does not hold the marker (it is bundled too).
const UNSUPPORTED_META = ['__nuageUnsupported', 'ImportMeta__'].join('');
const CREATE_REQUIRE = '__nuageCreateRequire';

let selfSource;

function sha256(parts) {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Digest of the build: this file, the entries and every input file's path and bytes (as read now, or as given). */
function digestOf(entries, inputs, contents) {
  selfSource ??= readFileSync(SELF);
  const parts = [String(FORMAT), selfSource, ...entries];
  for (const file of inputs) parts.push(file, contents?.get(file) ?? readFileSync(file));
  return sha256(parts);
}

function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}-${threadId}-${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** The bundle the manifest names, when it was built from the files as they are now. */
function cachedBundle(cacheDir, name, entries) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(cacheDir, `${name}.json`), 'utf8'));
  } catch {
    return null;
  }
  if (manifest.format !== FORMAT || !Array.isArray(manifest.inputs) || typeof manifest.bundle !== 'string') return null;
  const bundle = path.join(cacheDir, manifest.bundle);
  try {
    if (digestOf(entries, manifest.inputs) !== manifest.digest || !existsSync(bundle)) return null;
  } catch {
    return null; // an input was deleted or renamed
  }
  return bundle;
}

/** Source of the virtual entry: entry i re-exported as namespace `m<i>`. */
function entrySource(entries) {
  return entries.map((file, i) => `export * as m${i} from ${JSON.stringify(file)};`).join('\n');
}

/** Marks esbuild's own resolution of a package from the plugin (not to be intercepted again). */
const RESOLVING = { nuage: 'resolving' };

/** Whether Node loads `file` as CommonJS (by its extension, else its package's "type"). */
function isCommonJs(file) {
  const ext = path.extname(file);
  if (ext === '.cjs' || ext === '.json' || ext === '.node') return true;
  if (ext !== '.js') return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type !== 'module';
    } catch (error) {
      if (error?.code !== 'ENOENT') return false;
    }
    if (path.dirname(dir) === dir) return true;
  }
}

/**
 * esbuild plugin: packages external (but @nuage/*), every source read here
 * (recorded for the digest), import.meta made per file. A CommonJS package
 * is loaded with require() (from the importing source file) rather than
 * import: Node then skips scanning its source for export names, which costs
 * a fresh thread about 50 ms for proj4 and laz-perf.
 */
function sourcesPlugin(esbuild, contents) {
  return {
    name: 'nuage-sources',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (
          args.pluginData?.nuage === RESOLVING.nuage ||
          args.path.startsWith('@nuage/') ||
          path.isAbsolute(args.path)
        ) {
          return undefined;
        }
        if (args.path.startsWith('node:') || isBuiltin(args.path) || args.kind !== 'import-statement') {
          return { path: args.path, external: true };
        }
        // The file Node would load for import and for require: the same CommonJS file, or left to import.
        const how = { resolveDir: args.resolveDir, importer: args.importer, pluginData: RESOLVING };
        const [imported, required] = await Promise.all([
          build.resolve(args.path, { ...how, kind: 'import-statement' }),
          build.resolve(args.path, { ...how, kind: 'require-call' }),
        ]);
        const same = imported.errors.length === 0 && required.errors.length === 0 && imported.path === required.path;
        if (same && isCommonJs(imported.path)) {
          // One module per package file, required by its name from the importing source (as Node would resolve it).
          return {
            path: imported.path,
            namespace: 'nuage-require',
            pluginData: { name: args.path, from: args.importer },
          };
        }
        return { path: args.path, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'nuage-require' }, (args) => ({
        contents: `module.exports = ${CREATE_REQUIRE}(${JSON.stringify(pathToFileURL(args.pluginData.from).href)})(${JSON.stringify(args.pluginData.name)});`,
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: 'file' }, async (args) => {
        const loader = LOADERS[path.extname(args.path)];
        if (!loader) throw new Error(`cannot bundle ${args.path}: unknown file type`);
        const bytes = readFileSync(args.path);
        contents.set(args.path, bytes);
        const text = bytes.toString('utf8');
        if (!text.includes('import.meta')) return { contents: text, loader };
        const result = await esbuild.transform(text, {
          loader,
          format: 'esm',
          target: 'esnext',
          sourcefile: args.path,
          sourcemap: 'inline',
          tsconfigRaw: TSCONFIG_RAW,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            'import.meta.dirname': JSON.stringify(path.dirname(args.path)),
            'import.meta.filename': JSON.stringify(args.path),
            // Any other use of import.meta would be the bundle's: refused below.
            'import.meta': UNSUPPORTED_META,
          },
        });
        if (result.code.includes(UNSUPPORTED_META)) {
          throw new Error(
            `cannot bundle ${args.path}: it uses an import.meta property other than url, dirname, filename`,
          );
        }
        return { contents: result.code, loader: 'js' };
      });
    },
  };
}

/**
 * Builds the bundle of `entries` into the folder `cacheDir/<name>-<hash>/`
 * and records it in `<name>.json`. A source's dynamic `import()` of another
 * source becomes a chunk of its own, loaded (with the packages it imports)
 * only when that import runs: a `nuage` verb loads the code it runs, not
 * every verb's (the CLI's start-up, issue 24).
 */
async function buildBundle(cacheDir, name, entries) {
  const esbuild = (await import('esbuild')).default;
  const contents = new Map();
  const outdir = path.join(cacheDir, name);
  let result;
  try {
    result = await esbuild.build({
      stdin: { contents: entrySource(entries), resolveDir: path.dirname(entries[0]), sourcefile: `${name}.entry.mjs` },
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outdir,
      entryNames: 'entry',
      chunkNames: 'chunk-[hash]',
      outExtension: { '.js': '.mjs' },
      write: false,
      sourcemap: 'external',
      sourcesContent: false,
      // As Node resolves packages: no "module" condition or field.
      conditions: [],
      mainFields: ['main'],
      banner: { js: `import { createRequire as ${CREATE_REQUIRE} } from 'node:module';` },
      tsconfigRaw: TSCONFIG_RAW,
      logLevel: 'silent',
      plugins: [sourcesPlugin(esbuild, contents)],
    });
  } finally {
    // The esbuild service process would otherwise live as long as this thread.
    await esbuild.stop();
  }
  const scripts = result.outputFiles.filter((f) => f.path.endsWith('.mjs'));
  const entry = scripts.find((f) => path.basename(f.path) === 'entry.mjs');
  if (!entry || scripts.some((f) => !result.outputFiles.some((m) => m.path === `${f.path}.map`))) {
    throw new Error('esbuild wrote no bundle');
  }
  const inputs = [...contents.keys()].sort();
  // The folder is named by its contents and written whole before the manifest names it.
  const folder = `${name}-${sha256(scripts.map((f) => f.contents)).slice(0, 16)}`;
  const dir = path.join(cacheDir, folder);
  mkdirSync(dir, { recursive: true });
  for (const file of result.outputFiles) {
    const base = path.basename(file.path);
    writeAtomic(
      path.join(dir, base),
      base.endsWith('.mjs') ? `${file.text}//# sourceMappingURL=${base}.map\n` : file.contents,
    );
  }
  const bundle = `${folder}/entry.mjs`;
  const manifest = { format: FORMAT, entries, inputs, digest: digestOf(entries, inputs, contents), bundle };
  writeAtomic(path.join(cacheDir, `${name}.json`), `${JSON.stringify(manifest, null, 1)}\n`);
  prune(cacheDir, name, folder);
  return path.join(cacheDir, bundle);
}

/**
 * Deletes old bundle folders of `name` beyond the newest KEEP (only those
 * older than PRUNE_AGE_MS: a process may be loading one), and bundles of the
 * earlier one-file format (`<name>-<hash>.mjs` and its map).
 */
function prune(cacheDir, name, current) {
  try {
    const bundles = readdirSync(cacheDir)
      .filter((f) => f.startsWith(`${name}-`) && f !== current && !f.endsWith('.map'))
      .map((f) => ({ f, mtime: statSync(path.join(cacheDir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    const now = Date.now();
    for (const { f, mtime } of bundles.slice(KEEP - 1)) {
      if (now - mtime < PRUNE_AGE_MS) continue;
      rmSync(path.join(cacheDir, f), { force: true, recursive: true });
      rmSync(path.join(cacheDir, `${f}.map`), { force: true });
    }
  } catch {
    // Another process pruned the same files: nothing to do.
  }
}

/**
 * Imports TypeScript (or JavaScript) modules, given relative to `baseUrl`,
 * as one cached plain-JavaScript bundle, else through tsx. Resolves to their
 * namespaces in order and to how they were loaded.
 *
 * @example
 * // in a worker entry (.mjs)
 * const { modules: [{ runGroundTile }] } = await importCompiled(import.meta.url, ['./ground-tile.task.ts']);
 */
export async function importCompiled(baseUrl, specifiers, options = {}) {
  const entries = specifiers.map((s) => fileURLToPath(new URL(s, baseUrl)));
  const env = options.env ?? process.env;
  let reason = 'NUAGE_BUNDLE=0';
  if (env.NUAGE_BUNDLE !== '0') {
    const cacheDir = path.resolve(options.cacheDir ?? env.NUAGE_BUNDLE_DIR ?? DEFAULT_CACHE_DIR);
    const base = path.basename(entries[0]).replace(/\.[^.]+$/, '');
    const name = `${base}-${sha256(entries).slice(0, 12)}`;
    let bundle = null;
    let built = false;
    try {
      bundle = cachedBundle(cacheDir, name, entries);
      if (!bundle) {
        bundle = await buildBundle(cacheDir, name, entries);
        built = true;
      }
    } catch (error) {
      reason = `bundle not built: ${error?.message ?? error}`;
    }
    if (bundle) {
      try {
        process.setSourceMapsEnabled(true);
        const ns = await import(pathToFileURL(bundle).href);
        if (env.NUAGE_BUNDLE_DEBUG === '1') {
          process.stderr.write(`nuage: ${entries.join(', ')} from ${built ? 'new' : 'cached'} bundle ${bundle}\n`);
        }
        return { modules: entries.map((_, i) => ns[`m${i}`]), mode: 'bundle', built, bundle };
      } catch (error) {
        if (!(error instanceof SyntaxError) && !LINK_ERRORS.has(error?.code)) throw error;
        reason = `bundle not loaded: ${error?.message ?? error}`;
      }
    }
  }
  if (env.NUAGE_BUNDLE_DEBUG === '1') process.stderr.write(`nuage: ${entries.join(', ')} through tsx (${reason})\n`);
  const { register } = await import('tsx/esm/api');
  register();
  const modules = [];
  for (const file of entries) modules.push(await import(pathToFileURL(file).href));
  return { modules, mode: 'tsx', reason };
}

/** A preload flag's value that names tsx: `tsx`, `tsx/esm`, `…/node_modules/tsx/dist/loader.mjs`, its file URL. */
const TSX_MODULE = /(^|[\\/])tsx([\\/]|$)/;

/**
 * `execArgv` (default the process's) without tsx's preload flags, for worker
 * threads whose entry loads its code with {@link importCompiled}: a process
 * run by tsx passes them to every thread it starts, and each thread would
 * then load tsx for nothing (0.1 CPU-second a thread). The entry registers
 * tsx itself when it falls back to it.
 *
 * @example
 * new Worker(new URL('./tiler.worker.mjs', import.meta.url), { execArgv: workerExecArgv() });
 */
export function workerExecArgv(execArgv = process.execArgv) {
  const out = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = /^(--require|-r|--import|--loader|--experimental-loader)(?:=(.*))?$/.exec(execArgv[i]);
    if (flag) {
      const value = flag[2] ?? execArgv[i + 1] ?? '';
      if (TSX_MODULE.test(value)) {
        if (flag[2] === undefined) i++;
        continue;
      }
    }
    out.push(execArgv[i]);
  }
  return out;
}

/** Whether Node takes `execArgv` for a worker thread (it refuses V8 and process-wide flags there). */
function acceptedInWorker(execArgv) {
  try {
    // Node checks execArgv before it posts workerData, and a function cannot be posted: either
    // way the constructor throws before any thread starts.
    new Worker('', { eval: true, execArgv, workerData: () => {} }).terminate();
    return true;
  } catch (error) {
    return error?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV';
  }
}

/** {@link threadExecArgv}'s answer for this thread's execArgv (null: inherit). */
let threadArgv;

/**
 * `execArgv` option for the worker threads of a pool: {@link workerExecArgv}
 * when it strips something and Node accepts the rest in a worker, else
 * undefined, and the thread inherits the process's flags as without the
 * option (Node checks only flags given explicitly, and refuses V8 and
 * process-wide ones there, such as --max-old-space-size or --trace-deopt).
 *
 * @example
 * new Worker(new URL('./tiler.worker.mjs', import.meta.url), { execArgv: threadExecArgv() });
 */
export function threadExecArgv() {
  if (threadArgv === undefined) {
    const stripped = workerExecArgv();
    threadArgv = stripped.length < process.execArgv.length && acceptedInWorker(stripped) ? stripped : null;
  }
  return threadArgv ?? undefined;
}
