/** How {@link importCompiled} loaded the modules. */
export interface CompiledModules {
  /** The modules' namespaces, in the order of the specifiers. */
  modules: Record<string, unknown>[];
  /** `bundle`: plain JavaScript from the cache; `tsx`: the sources through the TypeScript loader. */
  mode: 'bundle' | 'tsx';
  /** `bundle` only: whether this call built it (its sources were new or had changed). */
  built?: boolean;
  /** `bundle` only: the bundle file. */
  bundle?: string;
  /** `tsx` only: why no bundle was used. */
  reason?: string;
}

/**
 * Imports TypeScript (or JavaScript) modules, given relative to `baseUrl`, as
 * one plain-JavaScript bundle cached in engine/node_modules/.cache (rebuilt
 * whenever a file it was built from changes), else through tsx. For threads
 * that have no TypeScript loader: worker threads, the `nuage` command.
 */
export function importCompiled(
  baseUrl: string | URL,
  specifiers: string[],
  options?: {
    /** Cache folder (default NUAGE_BUNDLE_DIR, else engine/node_modules/.cache/nuage-bundles). */
    cacheDir?: string;
    /** Environment read for NUAGE_BUNDLE, NUAGE_BUNDLE_DIR, NUAGE_BUNDLE_DEBUG (default process.env). */
    env?: Record<string, string | undefined>;
  },
): Promise<CompiledModules>;

/**
 * `execArgv` (default `process.execArgv`) without tsx's preload flags
 * (`--import tsx`, `--require …/tsx/…`): for `new Worker(entry, { execArgv })`
 * when the entry loads its code with {@link importCompiled}, so that a thread
 * started by a tsx-run process does not load tsx for nothing.
 */
export function workerExecArgv(execArgv?: readonly string[]): string[];

/**
 * `execArgv` option for a pool's worker threads: {@link workerExecArgv} when
 * it strips something and Node accepts the rest in a worker, else undefined
 * (the thread inherits the process's flags: Node refuses V8 and process-wide
 * flags, such as --max-old-space-size, when given explicitly).
 */
export function threadExecArgv(): string[] | undefined;
