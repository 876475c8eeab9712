import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeMvt, tileOf } from './mvt.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

describe('the whole pipeline on the embedded database (one process group: API, worker, PGlite)', () => {
  let child: ChildProcess | null = null;
  let dataDir = '';
  let out = '';
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child!.pid!, 'SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('uploads fusa.laz, tiles and processes it, serves its tileset and contours', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nuage-embedded-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PORT: String(port),
      EMBEDDED_DB_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'Owner-Passw0rd!',
    };
    delete env.DATABASE_URL;
    child = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited early:\n${out}`);
      // Healthy, and the worker process is up (its heartbeat is live): the system is idle and ready.
      const ok = await fetch(`${base}/api/health`).then(
        async (r) => r.status === 200 && ((await r.json()) as { worker: { live: number } }).worker.live > 0,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`not healthy in 120 s:\n${out}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    const login = await fetch(`${base}/api/auth-jwt/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'owner@example.com', password: 'Owner-Passw0rd!' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}\n${out}`);
      // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
      return (text ? JSON.parse(text) : null) as any;
    };

    const project = await call('POST', '/api/projects', { name: 'Fusa embedded' });
    const size = (await stat(realFile('fusa.laz'))).size;
    const { signedUrl, asset } = await call('POST', '/api/assets/upload-signed-url', {
      layerId: project.layers[0].id,
      type: 'POINT_CLOUD',
      filename: 'fusa.laz',
      fileSize: size,
    });
    const put = await fetch(signedUrl, { method: 'PUT', body: await readFile(realFile('fusa.laz')) });
    expect(put.status).toBe(200);
    await call('POST', '/api/assets/start-tiling', {
      assetId: asset.id,
      processingOptions: { dtmResolutionCm: 100, contourMinorCm: 100, contourMajorCm: 500 },
    });
    const done = Date.now() + 300_000;
    // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
    let p: any;
    for (;;) {
      p = await call('GET', `/api/projects/${project.id}`);
      const state = p.jobs.processing?.state;
      if (state === 'FAILURE' || p.status === 'ERROR') throw new Error(`failed: ${JSON.stringify(p.jobs)}\n${out}`);
      if (state === 'SUCCESS') break;
      if (Date.now() > done) throw new Error(`not processed in 300 s: ${JSON.stringify(p.jobs)}\n${out}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(p.status).toBe('READY');
    expect(p.lidarPointCount).toBe(277_573);
    const jobs = (await call('GET', `/api/projects/${project.id}/jobs`)).results as Array<{
      kind: string;
      status: string;
      createdAt: string;
      startedAt: string;
    }>;
    expect(jobs.map((j) => [j.kind, j.status]).sort()).toEqual([
      ['METADATA', 'SUCCESS'],
      ['PROCESSING', 'SUCCESS'],
      ['TILING', 'SUCCESS'],
    ]);
    const metadata = jobs.find((j) => j.kind === 'METADATA')!;
    expect(new Date(metadata.startedAt).getTime() - new Date(metadata.createdAt).getTime()).toBeLessThan(2000);

    // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
    const cloud = p.layers[0].assets.find((a: any) => a.type === 'POINT_CLOUD');
    const tileset = await fetch(cloud.accessUrl);
    expect(tileset.status).toBe(200);
    expect(((await tileset.json()) as { asset: { version: string } }).asset.version).toBe('1.1');
    const collections = await call('GET', '/ogc/collections');
    // Grid, the three contour assets and whatever else found features (buildings, trees...).
    expect(collections.collections.length).toBeGreaterThanOrEqual(4);
    const items = await call('GET', `/ogc/collections/${collections.collections[0].id}/items?limit=5`);
    expect(items.numberReturned).toBeGreaterThan(0);
    // PGlite's PostGIS transforms coordinates but has no ST_AsMVT (no protobuf): the API encodes the tiles.
    const first = collections.collections[0];
    const merc = await call('GET', `/ogc/collections/${first.id}/items?limit=1&crs=EPSG:3857`);
    expect(Math.abs(merc.features[0].geometry.coordinates.flat(3)[0])).toBeGreaterThan(1e6);
    const tilejson = await call('GET', `/ogc/collections/${first.id}/tiles/WebMercatorQuad`);
    const [w, s, e, n] = first.extent.spatial.bbox[0];
    const { x, y } = tileOf((w + e) / 2, (s + n) / 2, 12);
    const tile = await fetch(tilejson.tiles[0].replace('{z}', '12').replace('{x}', x).replace('{y}', y), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(tile.status).toBe(200);
    expect(decodeMvt(new Uint8Array(await tile.arrayBuffer()))[0]!.features.length).toBeGreaterThan(0);
  }, 600_000);
});
