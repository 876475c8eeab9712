import { readFile, stat } from 'node:fs/promises';
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
  putBytes,
  type TestUser,
  testUser,
  uploadUrl,
} from '../../test/projects.js';
import { writeUserLimits } from '../db/queries/limits.queries.js';

/** Every key stored under a project. */
async function storedKeys(t: TestApp, projectId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of t.deps.storage.objects.list(`projects/${projectId}/`)) keys.push(o.key);
  return keys;
}

describe('upload flow (spec §4, §7): signed URL → PUT → stored bytes', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let fusa: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    fusa = new Uint8Array(await readFile(realFile('fusa.laz')));
  });
  afterAll(() => t.close());

  it('answers a signed, expiring URL on our own API and an UPLOADING asset; the PUT stores it UPLOADED', async () => {
    const p = await createProject(t, ada, 'Fusa');
    const res = await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', fusa.byteLength, { epsgCode: null });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.signedUrl).toMatch(
      new RegExp(
        `^http://localhost:8080/api/assets/upload/${body.asset.id}\\?token=[A-Za-z0-9_-]{43}&expires=\\d+&signature=[A-Za-z0-9_-]{43}$`,
      ),
    );
    const expires = Number(new URL(body.signedUrl).searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(3500);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);
    expect(body.asset).toMatchObject({ type: 'POINT_CLOUD', status: 'UPLOADING', originalFilename: 'fusa.laz' });
    expect((await getProject(t, ada, p.id)).status).toBe('UPLOADING');

    const put = await putBytes(t, body.signedUrl, fusa);
    expect(put.status).toBe(200);
    const stored = await json(put);
    expect(stored.header).toEqual({
      lasVersion: '1.1',
      pointFormat: 1,
      pointCount: 277_573,
      compressed: true,
      fileSize: 1_078_962,
      crsRequired: false,
    });
    expect(stored.asset.status).toBe('UPLOADED');
    expect((await getProject(t, ada, p.id)).status).toBe('UPLOADED');
    const keys = await storedKeys(t, p.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^projects/${p.id}/assets/${body.asset.id}/u[0-9a-f]{12}/input\\.laz$`));
    const bytes = await readFile(t.deps.storage.localPath(keys[0]!)!);
    expect(Buffer.compare(bytes, Buffer.from(fusa))).toBe(0);

    // Single use: the same URL never works twice.
    const again = await putBytes(t, body.signedUrl, fusa);
    expect(again.status).toBe(409);
    expect((await json(again)).error.code).toBe('UPLOAD_URL_USED');
    // The project has its point cloud now.
    const second = await uploadUrl(t, ada, cloudLayerId(p), 'other.laz', 100);
    expect((await json(second)).error.code).toBe('ASSET_ALREADY_UPLOADED');
  });

  it('refuses altered and expired URLs', async () => {
    const p = await createProject(t, ada, 'Tamper');
    const { signedUrl } = await json(await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', fusa.byteLength));
    const u = new URL(signedUrl);
    const forged = new URL(u);
    forged.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 100));
    let res = await putBytes(t, forged.toString(), fusa);
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('UPLOAD_URL_INVALID');
    const otherToken = new URL(u);
    otherToken.searchParams.set('token', 'A'.repeat(43));
    res = await putBytes(t, otherToken.toString(), fusa);
    expect((await json(res)).error.code).toBe('UPLOAD_URL_INVALID');
    // An expired but genuine signature.
    const { signer } = await import('../services/signing.service.js');
    const assetId = u.pathname.split('/').pop()!;
    const token = u.searchParams.get('token')!;
    const past = Math.floor(Date.now() / 1000) - 5;
    const sig = await signer(t.deps).sign('upload', [assetId, token, past]);
    res = await putBytes(t, `${u.origin}${u.pathname}?token=${token}&expires=${past}&signature=${sig}`, fusa);
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('UPLOAD_URL_EXPIRED');
    // The genuine URL still works: refusals did not burn it.
    expect((await putBytes(t, signedUrl, fusa)).status).toBe(200);
  });

  it('stops a body larger than declared (413), removes the partial bytes, and uploads again with a new URL', async () => {
    const p = await createProject(t, ada, 'Too big');
    const layer = cloudLayerId(p);
    const { signedUrl, asset } = await json(await uploadUrl(t, ada, layer, 'fusa.laz', 1000));
    // Content-Length says more than declared: refused before reading.
    let res = await putBytes(t, signedUrl, fusa);
    expect(res.status).toBe(413);
    expect((await json(res)).error.code).toBe('FILE_TOO_LARGE');
    let a = cloudAsset(await getProject(t, ada, p.id));
    expect(a).toMatchObject({ id: asset.id, status: 'ABORTED', errorCode: 'FILE_TOO_LARGE' });
    expect(await storedKeys(t, p.id)).toEqual([]);

    // A chunked body (no Content-Length) that runs past the declared size is cut while streaming.
    const next = await json(await uploadUrl(t, ada, layer, 'fusa.laz', 300_000));
    expect(next.asset.id).toBe(asset.id);
    const chunks = [fusa.subarray(0, 200_000), fusa.subarray(200_000, 400_000), fusa.subarray(400_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const c = chunks.shift();
        if (c) controller.enqueue(c);
        else controller.close();
      },
    });
    res = await putBytes(t, next.signedUrl, stream);
    expect(res.status).toBe(413);
    a = cloudAsset(await getProject(t, ada, p.id));
    expect(a.status).toBe('ABORTED');
    expect(await storedKeys(t, p.id)).toEqual([]);

    // Uploading again works.
    const retry = await json(await uploadUrl(t, ada, layer, 'fusa.laz', fusa.byteLength));
    expect((await putBytes(t, retry.signedUrl, fusa)).status).toBe(200);
    expect(cloudAsset(await getProject(t, ada, p.id)).status).toBe('UPLOADED');
    expect(await storedKeys(t, p.id)).toHaveLength(1);
  });

  it('leaves an interrupted upload ABORTED with nothing stored (client gone mid-body)', async () => {
    const p = await createProject(t, ada, 'Interrupted');
    const { signedUrl } = await json(await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', fusa.byteLength));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 500_000) {
          controller.error(new Error('connection reset by peer'));
          return;
        }
        controller.enqueue(fusa.subarray(sent, sent + 100_000));
        sent += 100_000;
      },
    });
    const res = await putBytes(t, signedUrl, stream);
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('UPLOAD_INCOMPLETE');
    const a = cloudAsset(await getProject(t, ada, p.id));
    expect(a).toMatchObject({ status: 'ABORTED', errorCode: 'UPLOAD_INCOMPLETE' });
    expect(a.errorMessage).toMatch(/interrupted after \d+ of 1078962 bytes/);
    expect(await storedKeys(t, p.id)).toEqual([]);
    const tmp = await storedTmp(t);
    expect(tmp).toEqual([]);
  });

  it('leaves a body shorter than declared ABORTED (UPLOAD_INCOMPLETE)', async () => {
    const p = await createProject(t, ada, 'Short');
    const { signedUrl } = await json(await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', fusa.byteLength));
    const res = await putBytes(t, signedUrl, fusa.subarray(0, 1000));
    expect((await json(res)).error.code).toBe('UPLOAD_INCOMPLETE');
    expect(cloudAsset(await getProject(t, ada, p.id)).status).toBe('ABORTED');
    expect(await storedKeys(t, p.id)).toEqual([]);
  });

  it('reads the header from the stored bytes: MISSING_LAS_HEADER, INVALID_FILE (the client’s header data is ignored)', async () => {
    const p = await createProject(t, ada, 'Not LAS');
    const text = new TextEncoder().encode('this is not a point cloud at all, just text'.repeat(20));
    let r = await json(
      await uploadUrl(t, ada, cloudLayerId(p), 'cloud.las', text.byteLength, {
        lasHeaderData: { pointCount: 1000, versionMajor: 1, versionMinor: 4 },
      }),
    );
    let res = await putBytes(t, r.signedUrl, text);
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('MISSING_LAS_HEADER');
    expect(cloudAsset(await getProject(t, ada, p.id))).toMatchObject({
      status: 'ERROR',
      errorCode: 'MISSING_LAS_HEADER',
    });
    expect(await storedKeys(t, p.id)).toEqual([]);

    // LASF, then a header cut short: the engine's reader names the field.
    const truncated = fusa.slice(0, 200);
    r = await json(await uploadUrl(t, ada, cloudLayerId(p), 'cloud.laz', truncated.byteLength));
    res = await putBytes(t, r.signedUrl, truncated);
    const body = await json(res);
    expect(body.error.code).toBe('INVALID_FILE');
    expect(body.error.message).toMatch(/^the file is invalid: /);
    expect(cloudAsset(await getProject(t, ada, p.id)).status).toBe('ERROR');
    expect(await storedKeys(t, p.id)).toEqual([]);
  });

  it('keeps hostile file names as metadata only; storage keys are generated', async () => {
    const p = await createProject(t, ada, 'Hostile');
    const hostile = encodeURIComponent('../../../etc/passwd\u0000<script>.laz');
    const r = await json(await uploadUrl(t, ada, cloudLayerId(p), hostile, fusa.byteLength));
    expect(r.filename).toBe('passwd<script>.laz');
    expect((await putBytes(t, r.signedUrl, fusa)).status).toBe(200);
    const [key] = await storedKeys(t, p.id);
    expect(key).toMatch(/\/u[0-9a-f]{12}\/input\.laz$/);
    const bad = await uploadUrl(t, ada, cloudLayerId(p), 'notes.txt', 10);
    expect((await json(bad)).error.code).toBe('INVALID_FILE');
  });

  it('checks who asks: another user’s layer is LAYER_NOT_FOUND; only POINT_CLOUD is uploaded; bad EPSG refused', async () => {
    const p = await createProject(t, ada, 'Mine');
    const res = await uploadUrl(t, bob, cloudLayerId(p), 'fusa.laz', 100);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('LAYER_NOT_FOUND');
    const dtm = await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', 100, { type: 'DTM' });
    expect((await json(dtm)).error.code).toBe('UNSUPPORTED_ASSET_TYPE');
    const epsg = await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', 100, { epsgCode: 999_998 });
    expect((await json(epsg)).error.code).toBe('UNKNOWN_EPSG');
    const noSize = await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', 0);
    expect((await json(noSize)).error.code).toBe('FILE_EMPTY');
    const negative = await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', -1);
    expect((await json(negative)).error.code).toBe('FORM_INVALID');
  });

  it('start-tiling needs an UPLOADED point cloud', async () => {
    const p = await createProject(t, ada, 'Not yet');
    const { asset } = await json(await uploadUrl(t, ada, cloudLayerId(p), 'fusa.laz', fusa.byteLength));
    const res = await t.app.request('/api/assets/start-tiling', as(ada, 'POST', { assetId: asset.id }));
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('ASSET_NOT_UPLOADED');
    const his = await t.app.request('/api/assets/start-tiling', as(bob, 'POST', { assetId: asset.id }));
    expect((await json(his)).error.code).toBe('ASSET_NOT_FOUND');
  });
});

async function storedTmp(t: TestApp): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return readdir(`${t.deps.storage.location}/.tmp`).catch(() => []);
}

describe('upload limits (spec §8)', () => {
  let t: TestApp;
  let ada: TestUser;
  let size: number;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true', DEFAULT_MAX_INPUT_FILE_BYTES: '2000000' });
    ada = await testUser(t, 'ada@example.com');
    size = (await stat(realFile('fusa.laz'))).size;
  });
  afterAll(() => t.close());

  it('refuses a file over the input limit (FILE_TOO_LARGE) and, with a zero limit, asks to subscribe', async () => {
    const p = await createProject(t, ada, 'Limits');
    let res = await uploadUrl(t, ada, cloudLayerId(p), 'big.laz', 2_000_001);
    expect(res.status).toBe(413);
    expect((await json(res)).error).toMatchObject({ code: 'FILE_TOO_LARGE', details: { limit: 2_000_000 } });
    expect((await uploadUrl(t, ada, cloudLayerId(p), 'ok.laz', size)).status).toBe(200);
    await writeUserLimits(t.tdb.db, ada.id, { maxInputFileBytes: 0 });
    res = await uploadUrl(t, ada, cloudLayerId(p), 'ok.laz', size);
    expect(res.status).toBe(403);
    const body = await json(res);
    expect(body.error.code).toBe('FILE_SIZE_LIMIT_ZERO');
    expect(body.error.message).toContain('subscribe to a new plan');
    await writeUserLimits(t.tdb.db, ada.id, { maxInputFileBytes: null });
  });

  it('refuses an upload that would pass the storage limit (STORAGE_LIMIT_REACHED)', async () => {
    const fusa = new Uint8Array(await readFile(realFile('fusa.laz')));
    const p1 = await createProject(t, ada, 'First');
    const r = await json(await uploadUrl(t, ada, cloudLayerId(p1), 'fusa.laz', size));
    expect((await putBytes(t, r.signedUrl, fusa)).status).toBe(200);
    await writeUserLimits(t.tdb.db, ada.id, { maxStorageBytes: size + size / 2 });
    const p2 = await createProject(t, ada, 'Second');
    const res = await uploadUrl(t, ada, cloudLayerId(p2), 'fusa.laz', size);
    expect(res.status).toBe(403);
    expect((await json(res)).error).toMatchObject({ code: 'STORAGE_LIMIT_REACHED', details: { used: size } });
  });
});
