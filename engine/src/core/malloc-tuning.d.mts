/** glibc malloc settings for processes that hold and free large typed arrays (see malloc-tuning.mjs). */
export declare const MALLOC_TUNING: Readonly<{ MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string }>;
/** `env` with the settings added (for a child process); settings already in `env` are kept. */
export declare function tunedEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
/** Runs this command again in a child started with the settings; its exit code, or null when nothing was started. */
export declare function relaunchTuned(): Promise<number | null>;
