import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import { type Browser, chromium, type Page } from 'playwright-core';
import { e2e } from './support.js';

/**
 * Helpers of the projects and viewer journeys: a chromium with software
 * WebGL (SwiftShader), API shortcuts to prepare a READY project, and a pixel
 * comparison of screenshots decoded by the browser itself.
 */

/** Chromium with software WebGL so Cesium can draw without a GPU (never a downloaded browser). */
export function launchWebGlBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/** Waits on the project viewer's scene until its tiles are loaded (Cesium on SwiftShader is slow). */
export async function waitForTilesLoaded(page: Page, ms = 240_000): Promise<void> {
  await page.locator('[data-viewer-state="tiles-loaded"]').waitFor({ timeout: ms });
}

/** Calls the API with a bearer token; throws with the answer's body on a non-2xx status. */
export async function apiCall<T>(token: string | null, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e().baseUrl}/api${p}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Logs in through the API; returns the bearer token. */
export async function apiLogin(username = e2e().adminEmail, password = e2e().adminPassword): Promise<string> {
  const s = await apiCall<{ token: string }>(null, 'POST', '/auth-jwt/login', {
    username,
    password,
    rememberMeDays: 7,
  });
  return s.token;
}

interface ProjectLike {
  id: string;
  status: string;
  layers?: Array<{ id: string; type: string; assets: Array<{ id: string; type: string; status: string }> }>;
}

/**
 * Creates a project and uploads a real file through the API (upload flow of
 * spec §7), then waits until the project is READY; returns its id.
 */
export async function createReadyProject(token: string, name: string, file: string, ms = 300_000): Promise<string> {
  const project = await apiCall<ProjectLike>(token, 'POST', '/projects', { name });
  const layer = project.layers!.find((l) => l.type === 'POINT_CLOUD')!;
  const bytes = await readFile(realFile(file));
  const signed = await apiCall<{ signedUrl: string; asset: { id: string }; filename: string }>(
    token,
    'POST',
    '/assets/upload-signed-url',
    {
      layerId: layer.id,
      type: 'POINT_CLOUD',
      filename: encodeURIComponent(path.basename(file)),
      fileSize: bytes.length,
    },
  );
  const put = await fetch(signed.signedUrl, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: bytes,
  });
  if (!put.ok) throw new Error(`upload: HTTP ${put.status} ${await put.text()}`);
  await apiCall(token, 'POST', '/assets/start-tiling', {
    assetId: signed.asset.id,
    filename: signed.filename,
    fileSize: bytes.length,
    originalFilename: path.basename(file),
  });
  const deadline = Date.now() + ms;
  for (;;) {
    const p = await apiCall<ProjectLike>(token, 'GET', `/projects/${project.id}`);
    if (p.status === 'READY') return project.id;
    if (p.status === 'ERROR') throw new Error(`project ${name} failed: ${JSON.stringify(p)}`);
    if (Date.now() > deadline) throw new Error(`project ${name} still ${p.status} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Creates the share token of a project; returns the share link of the app. */
export async function shareLinkOf(token: string, projectId: string): Promise<string> {
  const { token: share } = await apiCall<{ token: string }>(token, 'POST', `/projects/${projectId}/share-token`);
  return `${e2e().baseUrl}/#/project-from-share-token?token=${encodeURIComponent(share)}`;
}

/** What two screenshots differ by: pixels whose colour moved by more than `threshold` (0..255 on any channel). */
export interface PixelDiff {
  width: number;
  height: number;
  changed: number;
  /** Pixels of `b` that are far from the scene background (drawn content). */
  colourful: number;
}

/**
 * Compares two PNG screenshots of the same size, decoded by the browser
 * (canvas 2D) so no image library is needed.
 */
export async function comparePngs(page: Page, a: Buffer, b: Buffer, threshold = 24): Promise<PixelDiff> {
  return page.evaluate(
    async ({ a64, b64, threshold }) => {
      async function pixels(b64: string) {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, img.width, img.height);
      }
      const [pa, pb] = await Promise.all([pixels(a64), pixels(b64)]);
      if (pa.width !== pb.width || pa.height !== pb.height) throw new Error('screenshots differ in size');
      let changed = 0;
      let colourful = 0;
      // The scene background: the most common colour of `a` (the empty scene).
      const counts = new Map<number, number>();
      for (let i = 0; i < pa.data.length; i += 4 * 7) {
        const key = (pa.data[i]! << 16) | (pa.data[i + 1]! << 8) | pa.data[i + 2]!;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const bg = [...counts.entries()].sort((x, y) => y[1] - x[1])[0]![0];
      const bgc = [(bg >> 16) & 255, (bg >> 8) & 255, bg & 255];
      for (let i = 0; i < pa.data.length; i += 4) {
        const d = Math.max(
          Math.abs(pa.data[i]! - pb.data[i]!),
          Math.abs(pa.data[i + 1]! - pb.data[i + 1]!),
          Math.abs(pa.data[i + 2]! - pb.data[i + 2]!),
        );
        if (d > threshold) changed++;
        const fromBg = Math.max(
          Math.abs(pb.data[i]! - bgc[0]!),
          Math.abs(pb.data[i + 1]! - bgc[1]!),
          Math.abs(pb.data[i + 2]! - bgc[2]!),
        );
        if (fromBg > threshold) colourful++;
      }
      return { width: pa.width, height: pa.height, changed, colourful };
    },
    { a64: a.toString('base64'), b64: b.toString('base64'), threshold },
  );
}

interface ProcessedProject extends ProjectLike {
  jobs?: { processing?: { state: string; errorMessage: string | null } };
}

/**
 * Processes a READY project (`POST /projects/{id}/processing`: every product
 * of the registry, or `options.products` and what they need) and waits until
 * its processing job has ended; returns the project with its new layers.
 * A job that failed as a whole (no product made) throws.
 */
export async function processProject(
  token: string,
  projectId: string,
  options: Record<string, unknown> = {},
  ms = 300_000,
): Promise<ProcessedProject> {
  await apiCall(token, 'POST', `/projects/${projectId}/processing`, { options });
  const deadline = Date.now() + ms;
  for (;;) {
    const p = await apiCall<ProcessedProject>(token, 'GET', `/projects/${projectId}`);
    const job = p.jobs?.processing;
    if (job?.state === 'SUCCESS') return p;
    if (job?.state === 'FAILURE') {
      const made = p.layers?.some((l) => l.type !== 'POINT_CLOUD' && l.assets.some((a) => a.status === 'READY'));
      if (!made) throw new Error(`processing failed: ${job.errorMessage}`);
      return p;
    }
    if (Date.now() > deadline) throw new Error(`processing of ${projectId} still ${job?.state} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Pixels of a PNG screenshot within `tolerance` (0..255 per channel) of the
 * colour `rgb`, decoded by the browser; every `step`-th pixel of each row and
 * column is looked at. Coordinates are CSS pixels of the screenshot.
 */
export async function pixelsOfColour(
  page: Page,
  png: Buffer,
  rgb: readonly [number, number, number],
  tolerance = 12,
  step = 1,
): Promise<Array<[number, number]>> {
  return page.evaluate(
    async ({ b64, rgb, tolerance, step }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, img.width, img.height);
      const out: Array<[number, number]> = [];
      for (let y = 0; y < height; y += step) {
        for (let x = 0; x < width; x += step) {
          const i = (y * width + x) * 4;
          if (
            Math.abs(data[i]! - rgb[0]) <= tolerance &&
            Math.abs(data[i + 1]! - rgb[1]) <= tolerance &&
            Math.abs(data[i + 2]! - rgb[2]) <= tolerance
          ) {
            out.push([x, y]);
          }
        }
      }
      return out;
    },
    { b64: png.toString('base64'), rgb: [...rgb], tolerance, step },
  );
}
