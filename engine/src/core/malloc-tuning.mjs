// glibc malloc settings for the processes that hold and free large typed
// arrays (the `nuage` command's heavy verbs, the job worker): plain JavaScript
// because the `nuage` command reads it before any loader; typed in
// malloc-tuning.d.mts.
//
// Why: a typed array's memory comes from malloc. With glibc's defaults, a
// freed block of up to 32 MB stays in the process (the mmap threshold grows
// to the size of the largest block freed, so later blocks come from the heap
// arenas, which keep what is freed), and every worker thread gets an arena of
// its own. The products of a 1 GB survey then held about 0.7 GB of freed
// memory in their resident set (peak 4.20 against 3.51 GB with these settings,
// same run, same time). With them, blocks over 128 kB are mapped and given
// back to the system when freed, and at most 2 arenas are made.
//
// glibc reads them once, when the process starts: a process that must have
// them is started with them (`tunedEnv` for a child) or starts itself again
// with them (`relaunchTuned`). Settings the user gave win.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** The settings; the ones already in the environment are kept as given. */
export const MALLOC_TUNING = Object.freeze({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });

/** Marks a process started with the settings (no second relaunch). */
const MARK = 'NUAGE_MALLOC_TUNED';

/** `env` with the settings added (for a child process). */
export function tunedEnv(env = process.env) {
  return { ...MALLOC_TUNING, ...env, [MARK]: '1' };
}

/**
 * Runs this same command again, with the same Node options and arguments, in a child process started with
 * the settings, and resolves to the exit code to end with once it ends (SIGTERM and SIGHUP forwarded; a
 * terminal's Ctrl-C reaches both processes). Resolves to null, having started nothing, where there is
 * nothing to gain: not Linux, the settings already there, or a parent that talks to this process over IPC.
 *
 * @returns {Promise<number | null>}
 */
export function relaunchTuned() {
  if (process.platform !== 'linux' || process.env[MARK] === '1' || typeof process.send === 'function') {
    return Promise.resolve(null);
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: tunedEnv(),
  });
  const forward = (signal) => child.kill(signal);
  // Ctrl-C in a terminal signals the whole process group: the child has it already; this one waits for it.
  const ignore = () => {};
  process.on('SIGTERM', forward);
  process.on('SIGHUP', forward);
  process.on('SIGINT', ignore);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      process.off('SIGHUP', forward);
      process.off('SIGINT', ignore);
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
}
