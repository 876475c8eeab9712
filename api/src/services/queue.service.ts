import type { Kysely } from 'kysely';
import { queueStates } from '../db/queries/jobs.queries.js';
import type { Database } from '../db/types.js';
import type { JobSummaryDto, ProjectDto, QueueDto } from './project-view.js';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Adds the queue state to every PENDING or PROGRESS job of the given job
 * summaries (one query for all of them), so a waiting message says what is
 * true now: the place in the queue, the jobs running, whether any worker is
 * alive, a retry's back-off, or the point cloud a processing waits for.
 *
 * @example
 * const jobs = jobSummaries(rows);
 * await addQueueStates(db, [jobs]);
 */
export async function addQueueStates(db: Kysely<Database>, jobSets: ReadonlyArray<ProjectDto['jobs']>): Promise<void> {
  const open: Array<{ job: JobSummaryDto; processing: boolean }> = [];
  for (const set of jobSets) {
    for (const [name, job] of Object.entries(set ?? {})) {
      if (job && (job.state === 'PENDING' || job.state === 'PROGRESS'))
        open.push({ job, processing: name === 'processing' });
    }
  }
  if (open.length === 0) return;
  const rows = new Map(
    (
      await queueStates(
        db,
        open.map((o) => o.job.id),
      )
    ).map((r) => [r.job_id, r]),
  );
  for (const { job, processing } of open) {
    const r = rows.get(job.id);
    if (!r) continue;
    const queue: QueueDto = {
      position: job.state === 'PENDING' && r.ahead !== null ? r.ahead + 1 : null,
      running: r.running,
      workers: r.workers,
      waitingForPointCloud: processing && job.state === 'PENDING' && r.queued_at === null,
      queuedAt: iso(r.queued_at),
      startedAt: job.state === 'PROGRESS' ? iso(r.started_at) : null,
      runAt: iso(r.run_at),
      attempts: r.attempts,
      maxAttempts: r.max_attempts,
    };
    job.queue = queue;
  }
}
