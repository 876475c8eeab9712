import { readFile } from 'node:fs/promises';
import { realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  cloudAsset,
  cloudLayerId,
  createProject,
  getProject,
  putBytes,
  type TestUser,
  testUser,
  uploadUrl,
} from '../../test/projects.js';

/** Hostile or unlucky uploads: file names, empty files and broken headers, refused (or cleaned) at upload. */
let t: TestApp;
let ada: TestUser;
let warsaw: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  ada = await testUser(t, 'uploader@example.com');
  warsaw = await readFile(realFile('warsaw_small.las'));
});
afterAll(() => t?.close());

const BOUNDARY = '----nuage-hostile-7d1e';
/** A multipart body as a browser sends it: the file name as raw UTF-8 in filename="…". */
function multipartBody(filename: string, content: Uint8Array): Uint8Array {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      'utf8',
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`, 'utf8'),
  ]);
}
const multipartUpload = (layerId: string, body: Uint8Array) =>
  t.app.request(`/api/assets/ion-tiler?layerId=${layerId}&epsgCode=2180`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...ada.auth },
    body,
  });
const storedMetadata = async (assetId: string) =>
  (await t.tdb.db.selectFrom('assets').select('metadata').where('id', '=', assetId).executeTakeFirstOrThrow())
    .metadata as { upload?: { originalFilename?: string } } | null;

describe('file names', () => {
  it('reads multipart file names as UTF-8: é stays é, not Ã©', async () => {
    const p = await createProject(t, ada, 'Accents');
    const res = await multipartUpload(cloudLayerId(p), multipartBody('relevé-forêt-été.las', warsaw));
    expect(res.status).toBe(200);
    const asset = await json(res);
    expect(asset.originalFilename).toBe('relevé-forêt-été.las');
    expect(asset.name).toBe('relevé-forêt-été.las');
  });

  it('strips control and bidi-override characters from the shown name and keeps the original in metadata', async () => {
    const p = await createProject(t, ada, 'Bidi');
    // "invoice‮sal.exe" would show as "invoiceexe.las" reversed: the override is dropped.
    const sent = 'invoice\u202esal.exe\u2066x\u0007.las';
    const r = await json(await uploadUrl(t, ada, cloudLayerId(p), encodeURIComponent(sent), warsaw.byteLength));
    expect(r.filename).toBe('invoicesal.exex.las');
    expect((await putBytes(t, r.signedUrl, warsaw)).status).toBe(200);
    const asset = cloudAsset(await getProject(t, ada, p.id));
    expect(asset.originalFilename).toBe('invoicesal.exex.las');
    expect((await storedMetadata(asset.id))?.upload?.originalFilename).toBe(sent);
  });

  it('gives the spec’s too-long message for names of 255 characters or more (not a misleading one)', async () => {
    const p = await createProject(t, ada, 'Long');
    const long = `${'é'.repeat(300)}.las`;
    const res = await uploadUrl(t, ada, cloudLayerId(p), encodeURIComponent(long), 1000);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe('FILE_NAME_TOO_LONG');
    expect(body.error.message).toMatch(/must be under 255 characters/);
    expect(body.error.details).toEqual({ max: 255, length: 304 });
    const ok = await uploadUrl(t, ada, cloudLayerId(p), encodeURIComponent(`${'é'.repeat(250)}.las`), 1000);
    expect(ok.status).toBe(200);
  });
});

describe('bad files refused at upload, naming the field', () => {
  it('an empty file is FILE_EMPTY, by its declared size and by its bytes', async () => {
    const p = await createProject(t, ada, 'Empty');
    const declared = await uploadUrl(t, ada, cloudLayerId(p), 'empty.las', 0);
    expect([declared.status, (await json(declared)).error.code]).toEqual([400, 'FILE_EMPTY']);
    const multipart = await multipartUpload(cloudLayerId(p), multipartBody('empty.las', new Uint8Array(0)));
    expect([multipart.status, (await json(multipart)).error.code]).toEqual([400, 'FILE_EMPTY']);
  });

  const broken: Array<[string, (b: Buffer) => void, Record<string, unknown>]> = [
    [
      'a negative Z scale',
      (b) => b.writeDoubleLE(-0.01, 147),
      { field: 'header.scale.z', context: 'scale', value: -0.01 },
    ],
    ['a zero X scale', (b) => b.writeDoubleLE(0, 131), { field: 'header.scale.x', context: 'scale', value: 0 }],
    [
      'a NaN Y offset',
      (b) => b.writeDoubleLE(Number.NaN, 163),
      { field: 'header.offset.y', context: 'offset', value: 'NaN' },
    ],
    [
      'point format 99',
      (b) => b.writeUInt8(99, 104),
      { field: 'header.pointFormat', context: 'pointFormat', value: 99 },
    ],
    [
      'a record length too short for its format',
      (b) => b.writeUInt16LE(20, 105),
      { field: 'header.pointRecordLength', context: 'recordLength', value: 20 },
    ],
    [
      'more points than the file holds',
      (b) => b.writeUInt32LE(3001, 107),
      { field: 'header.pointCount', context: 'pointCount', value: 3001 },
    ],
  ];
  it.each(broken)(
    '%s: INVALID_FILE with the field, the value and a translation context',
    async (_, mutate, expected) => {
      const p = await createProject(t, ada, `Broken ${expected.field} ${expected.value}`);
      const bytes = Buffer.from(warsaw);
      mutate(bytes);
      const r = await json(await uploadUrl(t, ada, cloudLayerId(p), 'broken.las', bytes.byteLength));
      const res = await putBytes(t, r.signedUrl, bytes);
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body.error.code).toBe('INVALID_FILE');
      expect(body.error.details).toMatchObject(expected);
      expect(body.error.message).toContain(String(expected.field));
      if (expected.field === 'header.pointFormat') expect(body.error.message).toMatch(/format 99 /);
      expect(cloudAsset(await getProject(t, ada, p.id)).status).toBe('ERROR');
    },
  );

  it('the translations name the field in en-US and fr', async () => {
    for (const lang of ['en-US', 'fr']) {
      const errors = JSON.parse(
        await readFile(new URL(`../../../web/public/locales/${lang}/errors.json`, import.meta.url), 'utf8'),
      ) as Record<string, string>;
      for (const key of [
        'INVALID_FILE_field',
        'INVALID_FILE_scale',
        'INVALID_FILE_offset',
        'INVALID_FILE_pointFormat',
        'INVALID_FILE_recordLength',
        'INVALID_FILE_pointCount',
      ]) {
        expect(errors[key], `${lang} ${key}`).toContain('{{field}}');
      }
      expect(errors.FILE_EMPTY).toBeTruthy();
      expect(errors.FILE_NAME_TOO_LONG).toContain('255');
      expect(errors.CROSS_SITE_REQUEST).toBeTruthy();
    }
  });
});
