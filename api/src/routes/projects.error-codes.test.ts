import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  as,
  cloudLayerId,
  createProject,
  getProject,
  putBytes,
  type TestUser,
  testUser,
  testWorker,
  uploadRealFile,
  uploadUrl,
  waitFor,
} from '../../test/projects.js';
import { setStanding } from '../../test/subscriptions.js';
import { insertJob } from '../db/queries/jobs.queries.js';
import { writeUserLimits } from '../db/queries/limits.queries.js';
import type { SubscriptionStatus } from '../db/types.js';
import { ERROR_CODES, type ErrorCode } from '../errors.codes.js';
import { reserveForJob } from '../services/credits.service.js';
import type { WorkerHandle } from '../worker/runner.js';

// The projects area's sources: every code they can answer with must be listed for translation.
const SOURCES = [
  'routes/projects.routes.ts',
  'routes/share.routes.ts',
  'routes/assets.routes.ts',
  'routes/jobs.routes.ts',
  'routes/admin-jobs.routes.ts',
  'routes/global-parameters.routes.ts',
  'routes/tiles.routes.ts',
  'routes/ogc-features.routes.ts',
  'services/access.service.ts',
  'services/assets.service.ts',
  'services/global-parameters.service.ts',
  'services/jobs.service.ts',
  'services/limits.service.ts',
  'services/projects.service.ts',
  'services/subscription.service.ts',
  'services/multipart-upload.service.ts',
];

const USE = /(?:AppError\(\s*\d+,\s*'|fail\(c, \d+, ')([A-Z][A-Z_]+)'/g;

describe('projects error codes', () => {
  it('lists every code the projects routes and services can answer with', async () => {
    const used = new Set<string>();
    for (const file of SOURCES) {
      const text = await readFile(path.join(import.meta.dirname, '..', file), 'utf8');
      for (const m of text.matchAll(USE)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((c) => !(c in ERROR_CODES))).toEqual([]);
  });
});

/** Processing options of the tests: coarse, so a processing that does run is short. */
const OPTIONS = { dtmResolutionCm: 200, contourMinorCm: 100, contourMajorCm: 500, gridResolutionCm: 2000 };

describe('spec §8 upload and processing errors, each triggered through the real API', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  /** Ada's READY project (fusa.laz, tiled), with its area measured. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let ready: any;
  /** Ada's project whose point cloud is UPLOADED, tiling not started. */
  let uploadedAssetId: string;
  /** The point cloud layer of Ada's empty project (upload URLs are asked for there). */
  let emptyLayerId: string;

  /** Puts Ada's subscription in a status and/or with this many hectares available (null: active, 1000 ha). */
  const standing = (body: { status?: SubscriptionStatus | null; creditsAllowance?: number | null }) =>
    setStanding(t, ada.id, {
      ...(body.status !== undefined ? { status: body.status ?? 'active' } : {}),
      ...(body.creditsAllowance !== undefined ? { credits: body.creditsAllowance ?? 1000 } : {}),
    });
  /** Rows of the credits ledger that spent credits (charges). */
  const charges = () => t.tdb.db.selectFrom('charges').selectAll().where('kind', '=', 'charge').execute();

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    ada = await testUser(t, 'ada@example.com');
    worker = await testWorker(t);
    // A project uploaded with the processing form while Ada has almost no credits: it is tiled,
    // then the waiting processing fails with INSUFFICIENT_CREDITS once the area is measured.
    await standing({ creditsAllowance: 0.01 });
    const { project, assetId } = await uploadRealFile(t, ada, 'Fusa', 'fusa.laz');
    const started = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId, processingOptions: OPTIONS }),
    );
    if (started.status !== 200) throw new Error(`start-tiling: ${started.status} ${await started.text()}`);
    ready = await waitFor(
      async () => {
        const p = await getProject(t, ada, project.id);
        return p.status === 'READY' && p.jobs.processing?.state === 'FAILURE' ? p : null;
      },
      120_000,
      'the tiled project and its refused processing',
    );
    await standing({ creditsAllowance: null });
    uploadedAssetId = (await uploadRealFile(t, ada, 'Uploaded', 'fusa.laz')).assetId;
    emptyLayerId = cloudLayerId(await createProject(t, ada, 'Empty'));
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });
  afterEach(async () => {
    await standing({ status: null, creditsAllowance: null });
    await writeUserLimits(t.tdb.db, ada.id, { maxProjects: null, maxInputFileBytes: null, maxStorageBytes: null });
  });

  it('a processing asked for at upload ends with INSUFFICIENT_CREDITS when the measured area passes the credits', async () => {
    expect(ready.area).toBeGreaterThan(0.01);
    expect(ready.jobs.processing).toMatchObject({ state: 'FAILURE', errorCode: 'INSUFFICIENT_CREDITS' });
    const [job] = (await json(await t.app.request(`/api/projects/${ready.id}/jobs`, as(ada, 'GET')))).results.filter(
      (j: { kind: string }) => j.kind === 'PROCESSING',
    );
    expect(job.errorMessage).toContain(`${Math.ceil(ready.area * 100) / 100} ha`);
    expect(job.errorMessage).toContain('0.01 ha left');
    // Nothing ran and nothing was charged.
    expect(await charges()).toEqual([]);
  });

  const uploadUrlFor = (fileSize: number, filename = 'cloud.las') =>
    uploadUrl(t, ada, emptyLayerId, filename, fileSize);
  const newProject = (name: string) => t.app.request('/api/projects', as(ada, 'POST', { name }));
  const processReady = () =>
    t.app.request(`/api/projects/${ready.id}/processing`, as(ada, 'POST', { options: OPTIONS }));
  /** A fresh project, its upload URL and a PUT of `bytes` under `filename`. */
  const putFile = async (name: string, filename: string, bytes: Uint8Array) => {
    const p = await createProject(t, ada, name);
    const signed = await json(await uploadUrl(t, ada, cloudLayerId(p), filename, bytes.byteLength));
    return putBytes(t, signed.signedUrl, bytes);
  };

  const CASES: Array<{
    spec: string;
    code: ErrorCode;
    status: number;
    run: () => Response | Promise<Response>;
    details?: () => Record<string, unknown>;
  }> = [
    // §8 Upload and project.
    {
      spec: 'A file must be selected (one-request upload without its file part)',
      code: 'FILE_REQUIRED',
      status: 400,
      run: () =>
        t.app.request(`/api/assets/ion-tiler?layerId=${emptyLayerId}`, {
          method: 'POST',
          headers: { ...ada.auth, 'content-type': 'multipart/form-data; boundary=b0' },
          body: '--b0\r\nContent-Disposition: form-data; name="name"\r\n\r\nno file\r\n--b0--\r\n',
        }),
    },
    {
      spec: 'Validation failed',
      code: 'FORM_INVALID',
      status: 400,
      run: () => t.app.request('/api/assets/upload-signed-url', as(ada, 'POST', { layerId: emptyLayerId })),
    },
    {
      spec: 'Maximum number of projects reached',
      code: 'MAX_PROJECTS_REACHED',
      status: 403,
      run: async () => {
        await writeUserLimits(t.tdb.db, ada.id, { maxProjects: 3 });
        return newProject('One too many');
      },
      details: () => ({ limit: 3, current: 3 }),
    },
    {
      spec: 'File size exceeds the limit',
      code: 'FILE_TOO_LARGE',
      status: 413,
      run: async () => {
        await writeUserLimits(t.tdb.db, ada.id, { maxInputFileBytes: 1000 });
        return uploadUrlFor(1001);
      },
      details: () => ({ limit: 1000, fileSize: 1001 }),
    },
    {
      spec: 'File size exceeds the limit (zero limit: subscribe to a new plan)',
      code: 'FILE_SIZE_LIMIT_ZERO',
      status: 403,
      run: async () => {
        await writeUserLimits(t.tdb.db, ada.id, { maxInputFileBytes: 0 });
        return uploadUrlFor(1000);
      },
    },
    {
      spec: 'Storage limit reached',
      code: 'STORAGE_LIMIT_REACHED',
      status: 403,
      run: async () => {
        // Ada keeps two uploads of fusa.laz (1.08 MB each) and a tileset.
        await writeUserLimits(t.tdb.db, ada.id, { maxStorageBytes: 3_000_000 });
        return uploadUrlFor(1_000_000);
      },
    },
    {
      spec: 'Internal server error',
      code: 'INTERNAL',
      status: 500,
      run: async () => {
        // A real fault under the route: the subscriptions table is gone for this one request.
        await sql`ALTER TABLE subscriptions RENAME TO subscriptions_away`.execute(t.tdb.db);
        try {
          return await newProject('During an outage');
        } finally {
          await sql`ALTER TABLE subscriptions_away RENAME TO subscriptions`.execute(t.tdb.db);
        }
      },
    },
    {
      spec: 'Subscription suspended: contact support (create project)',
      code: 'SUBSCRIPTION_SUSPENDED',
      status: 403,
      run: async () => {
        await standing({ status: 'suspended' });
        return newProject('While suspended');
      },
    },
    {
      spec: 'Subscription suspended: contact support (upload)',
      code: 'SUBSCRIPTION_SUSPENDED',
      status: 403,
      run: async () => {
        await standing({ status: 'suspended' });
        return uploadUrlFor(1000);
      },
    },
    {
      spec: 'No subscription found: contact support (create project)',
      code: 'NO_SUBSCRIPTION',
      status: 403,
      run: async () => {
        await standing({ status: 'none' });
        return newProject('Without subscription');
      },
    },
    {
      spec: 'No subscription found: contact support (upload)',
      code: 'NO_SUBSCRIPTION',
      status: 403,
      run: async () => {
        await standing({ status: 'none' });
        return uploadUrlFor(1000);
      },
    },
    {
      spec: 'Duplicate project name',
      code: 'DUPLICATE_PROJECT_NAME',
      status: 409,
      run: () => newProject('Fusa'),
    },
    {
      spec: 'Missing LAS header',
      code: 'MISSING_LAS_HEADER',
      status: 400,
      run: () => putFile('Not a LAS file', 'notes.las', new TextEncoder().encode('just some text, no header')),
    },
    {
      spec: 'The file is invalid (not .las/.laz)',
      code: 'INVALID_FILE',
      status: 400,
      run: () => uploadUrlFor(1000, 'notes.txt'),
    },
    {
      spec: 'The file is invalid (truncated header)',
      code: 'INVALID_FILE',
      status: 400,
      run: () => {
        // The LAS signature, then 96 zero bytes: no version, no header size.
        const bytes = new Uint8Array(100);
        bytes.set(new TextEncoder().encode('LASF'));
        return putFile('Truncated', 'cut.las', bytes);
      },
    },
    // §8 Processing.
    {
      spec: 'Inactive subscription',
      code: 'SUBSCRIPTION_INACTIVE',
      status: 403,
      run: async () => {
        await standing({ status: 'inactive' });
        return processReady();
      },
      details: () => ({ status: 'inactive' }),
    },
    {
      spec: 'Inactive subscription (cancelled: unsubscribed)',
      code: 'SUBSCRIPTION_INACTIVE',
      status: 403,
      run: async () => {
        await standing({ status: 'unsubscribed' });
        return processReady();
      },
      details: () => ({ status: 'unsubscribed' }),
    },
    {
      spec: 'Inactive subscription (processing asked for at start-tiling)',
      code: 'SUBSCRIPTION_INACTIVE',
      status: 403,
      run: async () => {
        await standing({ status: 'inactive' });
        return t.app.request(
          '/api/assets/start-tiling',
          as(ada, 'POST', { assetId: uploadedAssetId, processingOptions: OPTIONS }),
        );
      },
    },
    {
      spec: 'Insufficient credits (required against available hectares)',
      code: 'INSUFFICIENT_CREDITS',
      status: 402,
      run: async () => {
        await standing({ creditsAllowance: 0.5 });
        return processReady();
      },
      details: () => ({ required: Math.ceil(ready.area * 100) / 100, available: 0.5 }),
    },
    {
      spec: 'Area could not be calculated: contact support',
      code: 'AREA_NOT_COMPUTED',
      status: 409,
      run: async () => {
        await t.tdb.db.updateTable('projects').set({ area_hectares: null }).where('id', '=', ready.id).execute();
        try {
          return await processReady();
        } finally {
          await t.tdb.db
            .updateTable('projects')
            .set({ area_hectares: ready.area })
            .where('id', '=', ready.id)
            .execute();
        }
      },
    },
    {
      spec: 'Subscription suspended (processing)',
      code: 'SUBSCRIPTION_SUSPENDED',
      status: 403,
      run: async () => {
        await standing({ status: 'suspended' });
        return processReady();
      },
    },
    {
      spec: 'No subscription found (processing)',
      code: 'NO_SUBSCRIPTION',
      status: 403,
      run: async () => {
        await standing({ status: 'none' });
        return processReady();
      },
    },
  ];

  for (const c of CASES) {
    it(`${c.spec}: ${c.status} ${c.code}`, async () => {
      const res = await c.run();
      const body = await json(res);
      expect([res.status, body.error?.code], JSON.stringify(body)).toEqual([c.status, c.code]);
      expect(ERROR_CODES[c.code].status).toBe(c.status);
      expect(body.error.message.length).toBeGreaterThan(5);
      if (c.details) expect(body.error.details).toEqual(c.details());
    });
  }

  it('nothing refused was queued or charged: no processing ran', async () => {
    const jobs = await t.tdb.db.selectFrom('jobs').select(['kind', 'state']).where('kind', '=', 'PROCESSING').execute();
    expect(jobs).toEqual([{ kind: 'PROCESSING', state: 'FAILURE' }]);
    expect(await charges()).toEqual([]);
    expect(await t.tdb.db.selectFrom('charges').selectAll().where('kind', '=', 'reservation').execute()).toEqual([]);
  });

  it('a queued processing whose subscription is deactivated before it starts fails with SUBSCRIPTION_INACTIVE, its credits given back', async () => {
    await worker.stop();
    const before = (
      await t.tdb.db
        .selectFrom('subscriptions')
        .select('credits')
        .where('user_id', '=', ada.id)
        .where('is_current', '=', true)
        .executeTakeFirstOrThrow()
    ).credits;
    const queued = await processReady();
    expect(queued.status).toBe(202);
    const job = await json(queued);
    // The request reserved the project's area at once.
    const reserved = await t.tdb.db.selectFrom('charges').selectAll().where('job_id', '=', job.id).execute();
    expect(reserved.map((r) => [r.kind, r.delta])).toEqual([['reservation', -ready.area]]);
    await standing({ status: 'inactive' });
    worker = await testWorker(t);
    const failed = await waitFor(async () => {
      const j = await t.tdb.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      return j.state === 'FAILURE' ? j : null;
    }, 60_000);
    expect(failed).toMatchObject({ error_code: 'SUBSCRIPTION_INACTIVE', attempts: 1 });
    expect(await charges()).toEqual([]);
    // Released in the failure's transaction: the hectares are back.
    const ledger = await t.tdb.db
      .selectFrom('charges')
      .selectAll()
      .where('job_id', '=', job.id)
      .orderBy('id')
      .execute();
    expect(ledger.map((r) => [r.kind, r.delta])).toEqual([
      ['reservation', -ready.area],
      ['release', ready.area],
    ]);
    const after = (
      await t.tdb.db
        .selectFrom('subscriptions')
        .select('credits')
        .where('user_id', '=', ada.id)
        .where('is_current', '=', true)
        .executeTakeFirstOrThrow()
    ).credits;
    expect(after).toBeCloseTo(before, 6);
    // The owner's mail says what to do: subscribe (a link to the buy page), not "contact support".
    const outbox = path.join(t.dataDir, 'outbox');
    const mail = await waitFor(async () => {
      for (const f of await readdir(outbox).catch(() => [] as string[])) {
        const text = (await readFile(path.join(outbox, f), 'utf8')).replace(/=\n/g, '');
        if (text.includes('did not start')) return text;
      }
      return null;
    }, 10_000);
    expect(mail).toContain('To: ada@example.com');
    expect(mail).toContain('Subscribe or buy credits');
    expect(mail).toContain('/#/user/subscription/buy');
    expect(mail).not.toContain('contact support');
  });

  it('Processing failure: contact support (the job fails with its reason; the mail asks to contact support)', async () => {
    const input = await t.tdb.db
      .selectFrom('asset_files')
      .innerJoin('assets', 'assets.id', 'asset_files.asset_id')
      .select('asset_files.key')
      .where('assets.project_id', '=', ready.id)
      .where('assets.type', '=', 'POINT_CLOUD')
      .executeTakeFirstOrThrow();
    await t.deps.storage.objects.delete(input.key);
    const res = await processReady();
    expect(res.status).toBe(202);
    const failed = await waitFor(async () => {
      const p = await getProject(t, ada, ready.id);
      return p.jobs.processing?.state === 'FAILURE' && p.jobs.processing.errorCode !== 'INSUFFICIENT_CREDITS'
        ? p.jobs.processing
        : null;
    }, 60_000);
    expect(failed).toMatchObject({ state: 'FAILURE', errorCode: 'INPUT_MISSING' });
    const outbox = path.join(t.dataDir, 'outbox');
    const mail = await waitFor(async () => {
      const files = await readdir(outbox).catch(() => [] as string[]);
      for (const f of files) {
        const text = (await readFile(path.join(outbox, f), 'utf8')).replace(/=\n/g, '');
        if (text.includes('contact support') && text.includes('is missing')) return text;
      }
      return null;
    }, 10_000);
    expect(mail).toContain('To: ada@example.com');
  });

  it('reserves credits: hectares of processings already accepted are not available to another', async () => {
    // Another project of Ada's, as large as the ready one, with a processing accepted and not yet run.
    const other = await createProject(t, ada, 'Queued elsewhere');
    await t.tdb.db.updateTable('projects').set({ area_hectares: ready.area }).where('id', '=', other.id).execute();
    const queued = await insertJob(t.tdb.db, {
      kind: 'PROCESSING',
      projectId: other.id,
      assetId: null,
      userId: ada.id,
      state: 'PENDING',
    });
    try {
      await standing({ creditsAllowance: 1.5 * ready.area });
      await t.tdb.db
        .transaction()
        .execute((trx) =>
          reserveForJob(trx, { userId: ada.id, projectId: other.id, jobId: queued.id, hectares: ready.area }),
        );
      const res = await processReady();
      const body = await json(res);
      expect([res.status, body.error?.code]).toEqual([402, 'INSUFFICIENT_CREDITS']);
      expect(body.error.details).toEqual({
        required: Math.ceil(ready.area * 100) / 100,
        available: Math.floor(0.5 * ready.area * 100) / 100,
      });
    } finally {
      await t.tdb.db.deleteFrom('jobs').where('id', '=', queued.id).execute();
    }
  });
});
