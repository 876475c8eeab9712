import { readdir, readFile } from 'node:fs/promises';
import { realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  as,
  cloudAsset,
  cloudLayerId,
  createProject,
  getProject,
  type TestUser,
  testUser,
  testWorker,
  waitFor,
} from '../../test/projects.js';
import { writeUserLimits } from '../db/queries/limits.queries.js';
import type { WorkerHandle } from '../worker/runner.js';

const BOUNDARY = '----nuage-test-4f1c2b';
const encode = (s: string) => new TextEncoder().encode(s);

/** One part of a multipart body: a text field, or a file whose content may arrive in chunks. */
type Part =
  | { name: string; value: string }
  | { name: string; filename: string; content: Uint8Array | (() => AsyncIterable<Uint8Array>) };

/**
 * A multipart/form-data body as a stream written part by part, so the test
 * controls when bytes are produced (and can fail mid-file like a lost client).
 */
function multipart(parts: Part[], onProduced?: (bytes: number) => void): ReadableStream<Uint8Array> {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const p of parts) {
      if ('value' in p) {
        yield encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`);
        continue;
      }
      yield encode(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      if (p.content instanceof Uint8Array) {
        for (let i = 0; i < p.content.byteLength; i += 256 * 1024) yield p.content.subarray(i, i + 256 * 1024);
      } else {
        yield* p.content();
      }
      yield encode('\r\n');
    }
    yield encode(`--${BOUNDARY}--\r\n`);
  }
  const it = chunks();
  let produced = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await it.next();
        if (next.done) controller.close();
        else {
          produced += next.value.byteLength;
          onProduced?.(produced);
          controller.enqueue(next.value);
        }
      } catch (err) {
        controller.error(err);
      }
    },
  });
}

describe('POST /assets/ion-tiler: one-request multipart upload, then tiling', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let bob: TestUser;
  let autzen: Uint8Array;

  const send = (
    user: TestUser | null,
    layerId: string,
    body: ReadableStream<Uint8Array> | string,
    query = '',
    contentType = `multipart/form-data; boundary=${BOUNDARY}`,
  ) =>
    t.app.request(`/api/assets/ion-tiler?layerId=${layerId}${query}`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(user ? user.auth : {}) },
      body,
      duplex: 'half',
    } as RequestInit);

  /** Every key stored under a project, read at once. */
  const storedKeys = async (projectId: string) => {
    const keys: string[] = [];
    for await (const o of t.deps.storage.objects.list(`projects/${projectId}/`)) keys.push(o.key);
    return keys;
  };

  /**
   * Every key stored under a project, and the store's temporary files. Tilings
   * started by earlier tests write their own .part files into the shared tmp
   * folder (CI saw three, then four): the folder is read once every job has
   * ended, so it shows only what the request under test left behind.
   */
  const stored = async (projectId: string) => {
    await waitFor(
      async () => {
        const row = await t.tdb.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('state', 'in', ['PENDING', 'PROGRESS'])
          .executeTakeFirstOrThrow();
        return Number(row.n) === 0;
      },
      120_000,
      'earlier jobs to end',
    );
    const keys = await storedKeys(projectId);
    const tmp = await readdir(`${t.deps.storage.location}/.tmp`).catch(() => [] as string[]);
    return { keys, tmp };
  };

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    worker = await testWorker(t);
    autzen = new Uint8Array(await readFile(realFile('autzen_trim.las')));
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  it('streams autzen_trim.las into the store, starts tiling, and the asset reaches READY', async () => {
    const p = await createProject(t, ada, 'Autzen');
    const res = await send(
      ada,
      cloudLayerId(p),
      multipart([
        { name: 'note', value: 'ignored' },
        { name: 'file', filename: 'autzen_trim.las', content: autzen },
      ]),
    );
    expect(res.status).toBe(200);
    const asset = await json(res);
    expect(asset).toMatchObject({
      type: 'POINT_CLOUD',
      status: 'EXTRACTING_METADATA',
      originalFilename: 'autzen_trim.las',
    });
    // The stored bytes are the file's, byte for byte.
    const keys = await storedKeys(p.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^projects/${p.id}/assets/${asset.id}/u[0-9a-f]{12}/input\\.las$`));
    const bytes = await readFile(t.deps.storage.localPath(keys[0]!)!);
    expect(Buffer.compare(bytes, Buffer.from(autzen))).toBe(0);

    const ready = await waitFor(
      async () => {
        const project = await getProject(t, ada, p.id);
        const a = cloudAsset(project);
        if (a.status === 'ERROR') throw new Error(`tiling failed: ${a.errorMessage}`);
        return a.status === 'READY' ? project : null;
      },
      120_000,
      'autzen READY',
    );
    expect(ready.status).toBe('READY');
    expect(ready.lidarPointCount).toBe(110_000);
    expect(ready.lasName).toBe('autzen_trim.las');
    // The CRS says nothing of heights (NAD83(HARN) Lambert, feet): taken as orthometric, with the EGM96 undulation there.
    expect(ready.verticalReference).toMatchObject({ heights: 'orthometric', source: 'assumed', geoidModel: 'EGM96' });
    expect(ready.verticalReference.undulationMetres).toBeGreaterThan(-30);
    expect(ready.verticalReference.undulationMetres).toBeLessThan(-15);
    expect(ready.headerBoundsWarning).toBeNull();
    expect(cloudAsset(ready).accessUrl).toMatch(/tileset\.json$/);
    const jobs = (await json(await t.app.request(`/api/projects/${p.id}/jobs`, as(ada, 'GET')))).results;
    expect(jobs.map((j: { kind: string; status: string }) => [j.kind, j.status]).sort()).toEqual([
      ['METADATA', 'SUCCESS'],
      ['TILING', 'SUCCESS'],
    ]);
    expect(jobs[0].fileSize).toBe(autzen.byteLength);
  });

  it('keeps a hostile file name as metadata only and applies the epsgCode of the query', async () => {
    const p = await createProject(t, ada, 'Hostile');
    const res = await send(
      ada,
      cloudLayerId(p),
      multipart([{ name: 'file', filename: '..%2F..%2Fetc%2Fcron.d%2Fx.las', content: autzen }]),
      '&epsgCode=2994',
    );
    expect(res.status).toBe(200);
    const asset = await json(res);
    expect(asset.originalFilename).toBe('x.las');
    expect(asset.epsgCode).toBe(2994);
    const keys = await storedKeys(p.id);
    expect(keys).toEqual([expect.stringMatching(/\/u[0-9a-f]{12}\/input\.las$/)]);
  });

  it('refuses an oversize file while it streams (413 FILE_TOO_LARGE), long before the body ends, and keeps nothing', async () => {
    await writeUserLimits(t.tdb.db, ada.id, { maxInputFileBytes: 1_000_000 });
    try {
      const p = await createProject(t, ada, 'Too large');
      // 1 GiB announced in 1 MiB chunks: a buffering server would read it all before answering.
      let produced = 0;
      const chunk = new Uint8Array(1 << 20);
      chunk.set(autzen.subarray(0, 1 << 20));
      const res = await send(
        ada,
        cloudLayerId(p),
        multipart(
          [
            {
              name: 'file',
              filename: 'huge.las',
              content: async function* () {
                for (let i = 0; i < 1024; i++) yield chunk;
              },
            },
          ],
          (n) => {
            produced = n;
          },
        ),
      );
      expect(res.status).toBe(413);
      const body = await json(res);
      expect(body.error.code).toBe('FILE_TOO_LARGE');
      expect(body.error.details.limit).toBe(1_000_000);
      expect(produced).toBeLessThan(16 << 20);
      const a = cloudAsset(await getProject(t, ada, p.id));
      expect(a).toMatchObject({ status: 'ABORTED', errorCode: 'FILE_TOO_LARGE' });
      expect(await stored(p.id)).toEqual({ keys: [], tmp: [] });
    } finally {
      await writeUserLimits(t.tdb.db, ada.id, { maxInputFileBytes: null });
    }
  });

  it('refuses a file that is not LAS: INVALID_FILE by its name, MISSING_LAS_HEADER by its bytes (asset ERROR, nothing kept)', async () => {
    const p = await createProject(t, ada, 'Not LAS');
    const layer = cloudLayerId(p);
    const byName = await send(ada, layer, multipart([{ name: 'file', filename: 'notes.txt', content: autzen }]));
    expect([byName.status, (await json(byName)).error.code]).toEqual([400, 'INVALID_FILE']);
    const text = encode('x,y,z\n1,2,3\n'.repeat(1000));
    const byBytes = await send(ada, layer, multipart([{ name: 'file', filename: 'points.las', content: text }]));
    expect([byBytes.status, (await json(byBytes)).error.code]).toEqual([400, 'MISSING_LAS_HEADER']);
    expect(cloudAsset(await getProject(t, ada, p.id))).toMatchObject({
      status: 'ERROR',
      errorCode: 'MISSING_LAS_HEADER',
    });
    expect(await stored(p.id)).toEqual({ keys: [], tmp: [] });
  });

  it("refuses another user's layer (404 LAYER_NOT_FOUND) and an anonymous request (401)", async () => {
    const p = await createProject(t, ada, 'Private');
    const res = await send(bob, cloudLayerId(p), multipart([{ name: 'file', filename: 'a.las', content: autzen }]));
    expect([res.status, (await json(res)).error.code]).toEqual([404, 'LAYER_NOT_FOUND']);
    const anonymous = await send(
      null,
      cloudLayerId(p),
      multipart([{ name: 'file', filename: 'a.las', content: autzen }]),
    );
    expect(anonymous.status).toBe(401);
    expect(cloudAsset(await getProject(t, ada, p.id))).toBeUndefined();
    expect(await stored(p.id)).toEqual({ keys: [], tmp: [] });
  });

  it('refuses a request without a file part (400 FILE_REQUIRED), an empty file input, or a body that is not multipart', async () => {
    const p = await createProject(t, ada, 'No file');
    const layer = cloudLayerId(p);
    const cases: Array<[ReadableStream<Uint8Array> | string, string | undefined, string]> = [
      [multipart([{ name: 'name', value: 'just a field' }]), undefined, 'FILE_REQUIRED'],
      // What a browser sends for a file input left empty.
      [multipart([{ name: 'file', filename: '', content: new Uint8Array(0) }]), undefined, 'FILE_REQUIRED'],
      // A file under another name is not the file.
      [multipart([{ name: 'upload', filename: 'a.las', content: autzen }]), undefined, 'FILE_REQUIRED'],
      ['{"file":"a.las"}', 'application/json', 'FILE_REQUIRED'],
      ['--x\r\n', 'multipart/form-data', 'FILE_REQUIRED'],
    ];
    for (const [body, contentType, code] of cases) {
      const res = await send(ada, layer, body, '', contentType);
      expect([res.status, (await json(res)).error.code], contentType ?? 'multipart').toEqual([400, code]);
    }
    const badQuery = await send(ada, 'abc', multipart([{ name: 'file', filename: 'a.las', content: autzen }]));
    expect([badQuery.status, (await json(badQuery)).error.code]).toEqual([400, 'FORM_INVALID']);
    expect(cloudAsset(await getProject(t, ada, p.id))).toBeUndefined();
  });

  it('leaves an interrupted upload ABORTED with its partial bytes removed, and uploading again works', async () => {
    const p = await createProject(t, ada, 'Interrupted');
    const layer = cloudLayerId(p);
    const res = await send(
      ada,
      layer,
      multipart([
        {
          name: 'file',
          filename: 'autzen_trim.las',
          content: async function* () {
            yield autzen.subarray(0, 1_000_000);
            yield autzen.subarray(1_000_000, 2_000_000);
            throw new Error('connection reset by peer');
          },
        },
      ]),
    );
    expect([res.status, (await json(res)).error.code]).toEqual([400, 'UPLOAD_INCOMPLETE']);
    const a = cloudAsset(await getProject(t, ada, p.id));
    expect(a).toMatchObject({ status: 'ABORTED', errorCode: 'UPLOAD_INCOMPLETE' });
    expect(a.errorMessage).toMatch(/interrupted after \d+ bytes/);
    expect(await stored(p.id)).toEqual({ keys: [], tmp: [] });

    const again = await send(ada, layer, multipart([{ name: 'file', filename: 'autzen_trim.las', content: autzen }]));
    expect(again.status).toBe(200);
    expect((await json(again)).status).toBe('EXTRACTING_METADATA');
    expect(await storedKeys(p.id)).toHaveLength(1);
  });
});
