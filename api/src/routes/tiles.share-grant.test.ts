import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, cloudLayerId, createProject, type TestUser, testUser } from '../../test/projects.js';
import { SHARE_GRANT_TTL_MS, shareGrants } from '../services/share-grants.service.js';

/** The path and query of an absolute URL (the app is driven with app.request). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const TILESET = JSON.stringify({
  asset: { version: '1.1' },
  geometricError: 10,
  root: { boundingVolume: { sphere: [0, 0, 0, 10] }, geometricError: 0, content: { uri: 'content/0.glb' } },
});

/** A share link's tile, content and download URLs and the project view's tileset URL. */
interface SharedUrls {
  token: string;
  tileset: string;
  content: string;
  view: string;
  file: string;
}

describe('tile and download URLs of a share link end when the share is revoked', () => {
  let t: TestApp;
  let ada: TestUser;
  let root: TestUser;
  let clock = Date.now();
  let projectId: string;
  let assetId: string;

  /** A READY project whose point cloud has a (tiny) tileset and a stored file, written straight to the store. */
  async function readyProject(name: string): Promise<{ projectId: string; assetId: string }> {
    const project = await createProject(t, ada, name);
    const db = t.tdb.db;
    const asset = await db
      .insertInto('assets')
      .values({ project_id: project.id, layer_id: cloudLayerId(project), type: 'POINT_CLOUD', name: 'cloud' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const prefix = `projects/${project.id}/assets/${asset.id}/t1/`;
    const key = `projects/${project.id}/assets/${asset.id}/source/cloud.laz`;
    await t.deps.storage.tiles.put(`${prefix}tileset.json`, TILESET);
    await t.deps.storage.tiles.put(`${prefix}content/0.glb`, Buffer.from('glTF-test-bytes'));
    await t.deps.storage.objects.put(key, Buffer.from('LASF-test-bytes'));
    await db
      .insertInto('asset_files')
      .values({ asset_id: asset.id, extension: 'laz', key, file_name: 'cloud.laz', size: 15, content_type: 'x' })
      .execute();
    await db.updateTable('assets').set({ status: 'READY', tiles_prefix: prefix }).where('id', '=', asset.id).execute();
    await db.updateTable('projects').set({ status: 'READY' }).where('id', '=', project.id).execute();
    return { projectId: project.id, assetId: asset.id };
  }

  /** Creates (or replaces) the share link and takes every URL it hands out. */
  async function share(): Promise<SharedUrls> {
    const created = await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'POST'));
    expect(created.status).toBe(201);
    const { token } = await json(created);
    const tiles = await t.app.request(
      `/api/assets/custom-tiler/tiles-supplier-url-from-shared-token?id=${assetId}&token=${token}`,
    );
    expect(tiles.status).toBe(200);
    const tileset: string = (await json(tiles)).url;
    const view = await json(await t.app.request(`/api/projects/from-share-token?token=${token}`));
    const file = await t.app.request(
      `/api/assets/custom-tiler/file-supplier-url-from-shared-token?id=${assetId}&extension=laz&token=${token}`,
    );
    expect(file.status).toBe(200);
    return {
      token,
      tileset,
      content: new URL('content/0.glb', tileset).toString(),
      view: view.layers.flatMap((l: { assets: { accessUrl: string }[] }) => l.assets)[0].accessUrl,
      file: (await json(file)).url,
    };
  }

  async function status(url: string): Promise<number> {
    const res = await t.app.request(local(url));
    await res.arrayBuffer();
    return res.status;
  }

  async function ownerUrl(user: TestUser): Promise<string> {
    const res = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}`, as(user, 'GET'));
    expect(res.status).toBe(200);
    return (await json(res)).url;
  }

  beforeAll(async () => {
    t = await createTestApp();
    // The grant cache of this app reads a clock the tests move.
    shareGrants(t.deps, { now: () => clock });
    [ada, root] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'root@example.com', ['admin'])]);
    ({ projectId, assetId } = await readyProject('Shared'));
  });
  afterAll(() => t?.close());

  it('serves a share viewer’s tiles, contents and download at URLs naming the share, not its token', async () => {
    const s = await share();
    for (const url of [s.tileset, s.view, s.content, s.file]) {
      expect(url).toContain(`/g/${projectId}.`);
      expect(url).not.toContain(s.token);
    }
    const res = await t.app.request(local(s.tileset));
    expect(res.status).toBe(200);
    expect((await json(res)).root.content.uri).toBe('content/0.glb');
    // HTTP caches may keep a share link's response for 60 s only.
    expect(res.headers.get('cache-control')).toBe(`private, max-age=${SHARE_GRANT_TTL_MS / 1000}`);
    const glb = await t.app.request(local(s.content));
    expect(glb.status).toBe(200);
    expect(Buffer.from(await glb.arrayBuffer()).toString()).toBe('glTF-test-bytes');
    expect(await status(s.view)).toBe(200);
    const file = await t.app.request(local(s.file), { headers: { range: 'bytes=0-3' } });
    expect(file.status).toBe(206);
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('LASF');
  });

  it('answers 403 to the same URLs as soon as the owner revokes the share; owner and admin URLs keep working', async () => {
    const s = await share();
    const mine = await ownerUrl(ada);
    const admins = await ownerUrl(root);
    expect(mine).not.toContain('/g/');
    expect(admins).not.toContain('/g/');
    for (const url of [s.tileset, s.content, s.view, s.file, mine, admins]) expect(await status(url)).toBe(200);

    expect((await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'DELETE'))).status).toBe(204);
    for (const url of [s.tileset, s.content, s.view, s.file]) {
      const res = await t.app.request(local(url));
      expect(res.status, url).toBe(403);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await json(res)).error).toEqual({
        code: 'TILE_URL_INVALID',
        message: expect.stringContaining('share link that was revoked'),
      });
    }
    // Conditional requests are refused too (no 304 from a revoked share).
    const etag = (await t.app.request(local(mine))).headers.get('etag')!;
    expect((await t.app.request(local(s.tileset), { headers: { 'if-none-match': etag } })).status).toBe(403);
    for (const url of [mine, admins, new URL('content/0.glb', mine).toString()]) expect(await status(url)).toBe(200);
  });

  it('ends the old share’s URLs when the owner replaces the share, not the new one’s', async () => {
    const old = await share();
    expect(await status(old.tileset)).toBe(200);
    const fresh = await share();
    expect(await status(old.tileset)).toBe(403);
    expect(await status(old.file)).toBe(403);
    expect(await status(fresh.tileset)).toBe(200);
    expect(await status(fresh.file)).toBe(200);
  });

  it('refuses a forged grant, a grant moved or removed, and a tampered path (403 TILE_URL_INVALID)', async () => {
    const s = await share();
    const mine = await ownerUrl(ada);
    const u = new URL(s.tileset);
    // ['', 'tiles', 's', sig, exp, 'g', grant, 'projects', pid, 'assets', aid, run, 'tileset.json']
    const parts = u.pathname.split('/');
    const grant = parts[6]!;
    const fingerprint = grant.split('.')[1]!;
    const other = await readyProject('Other');
    const otherUrl = new URL(await ownerUrl(ada)).pathname.split('/');
    const swap = (i: number, v: string) => parts.map((p, j) => (j === i ? v : p)).join('/');
    const forged = [
      swap(6, `${projectId}.${fingerprint.slice(0, -1)}${fingerprint.endsWith('A') ? 'B' : 'A'}`),
      swap(6, `${other.projectId}.${fingerprint}`),
      swap(6, 'not-a-grant'),
      swap(10, other.assetId),
      swap(4, String(Number(parts[4]) + 60)),
      [...parts.slice(0, 5), ...parts.slice(7)].join('/'), // grant removed
      [...otherUrl.slice(0, 5), 'g', grant, ...otherUrl.slice(5)].join('/'), // grant added to an owner URL
      [...otherUrl.slice(0, 5), 'g', `${other.projectId}.${fingerprint}`, ...otherUrl.slice(5)].join('/'),
    ];
    for (const path of forged) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(403);
      expect((await json(res)).error.code, path).toBe('TILE_URL_INVALID');
    }
    const f = new URL(s.file);
    const fileParts = f.pathname.split('/');
    const noGrant = `${[...fileParts.slice(0, 5), ...fileParts.slice(7)].join('/')}${f.search}`;
    expect((await t.app.request(noGrant)).status).toBe(403);
    expect(
      (await t.app.request(`${f.pathname.replace(grant, `${other.projectId}.${fingerprint}`)}${f.search}`)).status,
    ).toBe(403);
    expect(await status(s.tileset)).toBe(200);
    expect(await status(mine)).toBe(200);
  });

  it('re-checks a grant once its cache entry is older than the TTL (a revocation made by another process)', async () => {
    const s = await share();
    expect(await status(s.tileset)).toBe(200);
    // Another API process revokes it: this process does not know, and keeps its answer for the TTL.
    await t.tdb.db.updateTable('projects').set({ share_token: null }).where('id', '=', projectId).execute();
    clock += SHARE_GRANT_TTL_MS - 1_000;
    expect(await status(s.tileset)).toBe(200);
    expect(await status(s.content)).toBe(200);
    clock += 1_000;
    expect(await status(s.tileset)).toBe(403);
    expect(await status(s.content)).toBe(403);
  });

  it('answers 403 once the shared project is deleted', async () => {
    const s = await share();
    expect(await status(s.tileset)).toBe(200);
    expect((await t.app.request(`/api/projects/${projectId}`, as(ada, 'DELETE'))).status).toBe(204);
    expect(await status(s.tileset)).toBe(403);
    expect(await status(s.file)).toBe(403);
  });
});
