import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.js';
import { pidAlive, processTable, releaseJobsOfDeadWorkers } from '../src/jobs/recovery.js';
import { createTestApp, type TestApp } from './app.js';
import { createProject, testUser } from './projects.js';

const run = promisify(execFile);

/** processTable() as a fresh process prints it, optionally in a PID namespace of its own (same hostname). */
async function tableOfChild(ownPidNamespace: boolean): Promise<string> {
  const node = [
    process.execPath,
    '--import',
    'tsx',
    '-e',
    "import('./api/src/jobs/recovery.ts').then((m) => console.log(m.processTable()))",
  ];
  // A user namespace too, so that this runs without root where the kernel allows it.
  const argv = ownPidNamespace ? ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc', ...node] : node;
  const { stdout } = await run(ownPidNamespace ? 'unshare' : argv[0]!, ownPidNamespace ? argv : argv.slice(1), {
    cwd: REPO_ROOT,
  });
  return stdout.trim();
}

/** A pid no process of this table has. */
function deadPid(): number {
  for (let pid = 3_999_999; ; pid--) if (!pidAlive(pid)) return pid;
}

describe('worker liveness is judged per process table, not per hostname', () => {
  let other: string;

  it('processTable() is the same for processes of one PID namespace and differs in another with the same hostname', async () => {
    const here = processTable();
    expect(here.startsWith(hostname())).toBe(true);
    expect(await tableOfChild(false)).toBe(here);
    other = await tableOfChild(true);
    expect(other.split(' ')[0]).toBe(hostname());
    expect(other).not.toBe(here);
  }, 60_000);

  describe('releaseJobsOfDeadWorkers', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t?.close();
    });

    it('keeps the running job of a live worker in another container named alike; releases one whose pid is gone here', async () => {
      expect(other, 'the first test gives the other table').toBeDefined();
      const user = await testUser(t, 'ops@example.com');
      const project = await createProject(t, user, 'Liveness');
      const db = t.tdb.db;
      const pid = deadPid();
      // Same hostname, same pid, fresh heartbeats: one worker in another PID namespace (alive there), one in ours (gone).
      await db
        .insertInto('worker_heartbeats')
        .values([
          { worker_id: 'elsewhere', hostname: other, pid },
          { worker_id: 'gone', hostname: processTable(), pid },
        ])
        .execute();
      const job = async (workerId: string) =>
        (
          await db
            .insertInto('jobs')
            .values({ kind: 'METADATA', project_id: project.id, state: 'PROGRESS', worker_id: workerId })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const live = await job('elsewhere');
      const dead = await job('gone');
      expect(await releaseJobsOfDeadWorkers(t.deps, 'self')).toEqual([dead]);
      const states = await db.selectFrom('jobs').select(['id', 'state', 'worker_id']).orderBy('id').execute();
      expect(states).toEqual([
        { id: live, state: 'PROGRESS', worker_id: 'elsewhere' },
        { id: dead, state: 'PENDING', worker_id: null },
      ]);
    });
  });
});
