import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { AppDeps } from '../context.js';
import { updateJob } from '../db/queries/jobs.queries.js';
import { ensureQueue, forceUnlockWorkers } from './queue.js';

/**
 * A worker on another host whose heartbeat (every 5 s) is older than this is
 * dead. Generous: a long synchronous engine step delays heartbeats.
 */
export const DEAD_AFTER_SECONDS = 120;
/** How often a live worker looks for jobs of dead workers. */
const SWEEP_MS = 15_000;

/** Whether a process of this host is alive (EPERM: alive, another user's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let table: string | undefined;

/**
 * The process table this process lives in, where a worker's pid means
 * something: what worker heartbeats record (their `hostname` column) and what
 * the dead-worker checks compare before they trust a pid. The hostname alone
 * is not enough: two containers with host networking (or two machines named
 * alike) share a hostname, yet each has its own processes, so a pid of the
 * other is absent or another process here. On Linux the PID namespace and the
 * boot id are added (`worker-7 pid:[4026532291]@5d3c1e2a`); elsewhere the
 * hostname alone.
 */
export function processTable(): string {
  if (table === undefined) {
    let where = '';
    try {
      const pidNamespace = readlinkSync('/proc/self/ns/pid');
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8);
      where = ` ${pidNamespace}@${boot}`;
    } catch {
      // No /proc (not Linux): the hostname.
    }
    table = `${hostname()}${where}`;
  }
  return table;
}

interface RunningJob {
  id: string;
  worker_id: string | null;
  locked_by: string | null;
  hb_hostname: string | null;
  hb_pid: number | null;
  hb_age: number | null;
}

/**
 * Releases the jobs of workers that died (SIGKILL, crash, lost machine) so
 * they run again now rather than after graphile-worker's 4-hour lock timeout.
 * A worker is dead when its heartbeat row is missing, when it ran in this
 * process table (processTable) and its process no longer exists, or
 * (other hosts, other containers) when its heartbeat is
 * older than DEAD_AFTER_SECONDS. Its jobs
 * go back to PENDING and their graphile-worker locks are released; the runs
 * that follow resume or redo the work idempotently (charges are keyed per job).
 *
 * @returns ids of the jobs released.
 */
export async function releaseJobsOfDeadWorkers(deps: AppDeps, selfId: string): Promise<string[]> {
  const db = deps.database.db;
  const rows = await sql<RunningJob>`
    SELECT j.id, j.worker_id, j.locked_by, h.hostname AS hb_hostname, h.pid AS hb_pid,
           extract(epoch FROM now() - h.beat_at)::float8 AS hb_age
    FROM jobs j LEFT JOIN worker_heartbeats h ON h.worker_id = j.worker_id
    WHERE j.state = 'PROGRESS' AND j.worker_id IS DISTINCT FROM ${selfId}`.execute(db);
  const here = processTable();
  // In this process table the pid is the truth (a busy worker may beat late);
  // elsewhere (other hosts, other containers) the heartbeat's age is.
  const dead = rows.rows.filter((r) => {
    if (r.hb_age === null) return true;
    if (r.hb_hostname === here) return r.hb_pid === process.pid || !pidAlive(r.hb_pid!);
    return r.hb_age > DEAD_AFTER_SECONDS;
  });
  if (dead.length === 0) return [];
  await ensureQueue(deps);
  const locks = [...new Set(dead.map((r) => r.locked_by).filter((l): l is string => !!l))];
  await forceUnlockWorkers(deps, locks);
  for (const r of dead) {
    await updateJob(
      db,
      r.id,
      { state: 'PENDING', worker_id: null, locked_by: null, error_message: 'resumed after its worker stopped' },
      ['PROGRESS'],
    );
  }
  const workers = [...new Set(dead.map((r) => r.worker_id).filter((w): w is string => !!w))];
  if (workers.length > 0) await db.deleteFrom('worker_heartbeats').where('worker_id', 'in', workers).execute();
  deps.log.warn({ jobs: dead.map((r) => r.id), workers, locks }, 'released the jobs of dead workers');
  return dead.map((r) => r.id);
}

/**
 * Runs `releaseJobsOfDeadWorkers` now (worker start) and every 15 s.
 * Returns a stop function.
 */
export async function startRecovery(deps: AppDeps, selfId: string): Promise<() => void> {
  const sweep = () =>
    releaseJobsOfDeadWorkers(deps, selfId).catch((err) => deps.log.warn({ err }, 'dead-worker sweep failed'));
  await sweep();
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
