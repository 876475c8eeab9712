import { readFile } from 'node:fs/promises';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { readZip } from '@nuage/engine/writers/zip.reader.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import type { Browser, Page } from 'playwright-core';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PickedPosition } from '../src/viewer/measure/measure.types.js';
import { apiCall, apiLogin, createReadyProject, launchWebGlBrowser, waitForTilesLoaded } from './projects-helpers.js';
import { logIn, openRoute, screenshot, UI_TIMEOUT, uniqueEmail } from './support.js';

/** fusa.laz: WGS 84 / UTM zone 54S. A polygon inside it, vertices off the 1 cm grid. */
const UTM = '+proj=utm +zone=54 +south +datum=WGS84 +units=m +no_defs';
const RING: Array<[number, number]> = [
  [277800.3037, 6122300.7011],
  [277950.1013, 6122280.2029],
  [277960.9041, 6122450.4053],
  [277820.6007, 6122470.1071],
];

function pnpoly(ring: number[][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) c = !c;
  }
  return c;
}

async function pointsOf(file: string): Promise<Array<{ x: number; y: number; c: number }>> {
  const reader = await openPointCloud(file);
  const out: Array<{ x: number; y: number; c: number }> = [];
  try {
    for await (const ch of reader.read({ workers: 0 })) {
      for (let k = 0; k < ch.count; k++) out.push({ x: ch.x[k]!, y: ch.y[k]!, c: ch.classification![k]! });
    }
  } finally {
    await reader.close();
  }
  return out;
}

/**
 * Clip and download in the viewer: a user opens their project (fusa.laz,
 * tiled by the real server), opens the clip panel, draws a polygon (a real
 * click in the scene first, to see that clicks reach the panel while it draws,
 * then the corners handed through the test hook as a click on them would),
 * sees the estimate, asks for LAZ with classes 2 and 6, follows the job and
 * downloads the file: it holds exactly the points of the file inside the
 * polygon with those classes (a reference computed here from the file).
 */
describe('clip and download in the viewer', () => {
  let browser: Browser;
  let email: string;
  const password = 'Lidar-Cl1pping!';
  let projectId: string;
  let token: string;

  beforeAll(async () => {
    browser = await launchWebGlBrowser();
    const admin = await apiLogin();
    email = uniqueEmail('clip');
    await apiCall(admin, 'POST', '/users', { roles: ['user'], userJwt: { username: email, password } });
    token = await apiLogin(email, password);
    projectId = await createReadyProject(token, 'Fusa clip', 'fusa.laz');
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
  });

  async function pick(page: Page, p: PickedPosition): Promise<void> {
    await page.evaluate((position) => {
      const hook = window.__nuageClip;
      if (!hook) throw new Error('the clip panel is not drawing');
      hook.pick(position);
    }, p);
  }

  it('draws a polygon, shows the estimate, clips to LAZ with classes 2 and 6 and downloads exactly those points', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, email, password);
    await openRoute(page, `/user/projects/${projectId}`);
    await waitForTilesLoaded(page);

    await page.getByRole('button', { name: 'Clip', exact: true }).click();
    const panel = page.getByTestId('clip-panel');
    await panel.waitFor();
    await panel.getByText('Draw the area to clip in the scene (3D or 2D).').waitFor();
    await panel.getByRole('button', { name: 'Draw the area' }).click();
    await panel.getByText('Click the corners of the polygon: 0 corners so far.', { exact: false }).waitFor();

    // A real click in the middle of the scene (where the home view puts the cloud) is a corner.
    const stage = page.locator('.nu-viewer__stage');
    const box = (await stage.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await panel.getByText('Click the corners of the polygon: 1 corner so far.', { exact: false }).waitFor();
    await panel.getByRole('button', { name: 'Clear' }).click();

    // The corners of the polygon, as a click on each would give them.
    await panel.getByRole('button', { name: 'Draw the area' }).click();
    const toLonLat = proj4(UTM, 'EPSG:4326');
    for (const v of RING) {
      const [lon, lat] = toLonLat.forward(v) as [number, number];
      await pick(page, { lon, lat, height: 50, source: 'cloud' });
    }
    await panel.getByText('4 corners so far', { exact: false }).waitFor();
    await panel.getByRole('button', { name: 'Finish' }).click();
    const estimate = panel.getByTestId('clip-estimate');
    await expect.poll(() => estimate.getAttribute('data-points'), { timeout: 30_000 }).not.toBe('');
    const estimated = Number(await estimate.getAttribute('data-points'));
    await expect(estimate.textContent()).resolves.toMatch(/^About [\d,]+ points, [\d.]+ MB \([\d,]+ m²\)$/);

    await panel.getByLabel('Classes').fill('2, 6');
    await panel.getByLabel('Format').selectOption('laz');
    // The estimate follows the classes asked (the class counts of the metadata extraction).
    await expect.poll(() => estimate.getAttribute('data-points'), { timeout: 30_000 }).not.toBe(String(estimated));
    await expect.poll(() => estimate.textContent(), { timeout: 30_000 }).toMatch(/^About/);
    const estimatedWithClasses = Number(await estimate.getAttribute('data-points'));
    await screenshot(page, 'clip-drawn-estimate');

    await panel.getByRole('button', { name: 'Clip', exact: true }).click();
    const done = panel.locator('[data-clip-state="SUCCESS"]');
    await done.waitFor({ timeout: 120_000 });
    await screenshot(page, 'clip-done');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), done.click()]);
    expect(download.suggestedFilename()).toBe('Fusa-clip-clip.laz');
    const file = await download.path();
    expect((await readFile(file)).subarray(0, 4).toString()).toBe('LASF');

    // The file holds exactly the points of fusa.laz inside the polygon with classes 2 and 6.
    const back = RING.map((v) => toLonLat.inverse(toLonLat.forward(v)) as number[]);
    const all = await pointsOf(realFile('fusa.laz'));
    const inside = all.filter((p) => pnpoly(back, p.x, p.y));
    const expected = inside.filter((p) => p.c === 2 || p.c === 6);
    const got = await pointsOf(file);
    expect(got.length).toBe(expected.length);
    expect(got.every((p, k) => p.c === expected[k]!.c && Math.abs(p.x - expected[k]!.x) < 1e-6)).toBe(true);
    expect(Number(await done.getAttribute('data-points'))).toBe(expected.length);
    // The estimates (every point inside, then classes 2 and 6): within a factor of 1.5 on this even cloud.
    expect(estimated / inside.length).toBeGreaterThan(0.66);
    expect(estimated / inside.length).toBeLessThan(1.5);
    expect(estimatedWithClasses / expected.length).toBeGreaterThan(0.66);
    expect(estimatedWithClasses / expected.length).toBeLessThan(1.5);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('also zips the vector products of the area when the box is ticked, and offers the zip beside the cloud', async () => {
    // Vector products to zip: the project processed with tree tops (the upload alone makes none).
    await apiCall(token, 'POST', `/projects/${projectId}/processing`, {
      options: { products: ['tree-tops'], gridResolutionCm: 1000 },
    });
    const deadline = Date.now() + 300_000;
    for (;;) {
      const p = await apiCall<{ jobs?: { processing?: { state: string; errorMessage?: string | null } } }>(
        token,
        'GET',
        `/projects/${projectId}`,
      );
      const state = p.jobs?.processing?.state;
      if (state === 'SUCCESS') break;
      if (state === 'FAILURE') throw new Error(`processing failed: ${p.jobs?.processing?.errorMessage}`);
      if (Date.now() > deadline) throw new Error(`processing still ${state}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(UI_TIMEOUT);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await logIn(page, email, password);
    await openRoute(page, `/user/projects/${projectId}`);
    await waitForTilesLoaded(page);
    await page.getByRole('button', { name: 'Clip', exact: true }).click();
    const panel = page.getByTestId('clip-panel');
    await panel.getByRole('button', { name: 'Draw the area' }).click();
    const toLonLat = proj4(UTM, 'EPSG:4326');
    for (const v of RING) {
      const [lon, lat] = toLonLat.forward(v) as [number, number];
      await pick(page, { lon, lat, height: 50, source: 'cloud' });
    }
    await panel.getByRole('button', { name: 'Finish' }).click();
    await expect
      .poll(() => panel.getByTestId('clip-estimate').getAttribute('data-points'), { timeout: 30_000 })
      .not.toBe('');

    await panel.getByText('Also the vector products of this area').click();
    await panel.getByLabel('Vector format').selectOption('shapefile');
    await panel.getByRole('button', { name: 'Clip', exact: true }).click();
    const vectors = panel.locator('[data-clip-vectors-download]');
    await vectors.waitFor({ timeout: 120_000 });
    await expect(vectors.textContent()).resolves.toMatch(/^Vector products \(\d+ layers?, [\d.]+ MB\)$/);
    await screenshot(page, 'clip-vectors-done');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), vectors.click()]);
    expect(download.suggestedFilename()).toBe('Fusa-clip-clip-vectors.zip');
    const zip = readZip(await download.path());
    const readme = zip.get('README.txt')!.data.toString('utf8');
    // Every Shapefile set the README lists is in the zip, with its .prj.
    const listed = readme
      .split(/\r?\n/)
      .filter((l) => /\.shp/.test(l))
      .flatMap((l) => l.split('\t')[0]!.split(', '));
    expect(listed).toEqual(
      expect.arrayContaining(['tree_tops.shp', 'tree_tops.shx', 'tree_tops.dbf', 'tree_tops.prj']),
    );
    expect(readme).toMatch(/\tTREE_TOPS\t[1-9]\d*\t/);
    for (const name of listed) expect(zip.has(name), name).toBe(true);
    expect([...zip.keys()].sort()).toEqual([...listed, 'README.txt'].sort());
    expect(listed.filter((n) => n.endsWith('.shp')).length).toBe(listed.filter((n) => n.endsWith('.prj')).length);
    expect(errors).toEqual([]);
    await context.close();
  });
});
