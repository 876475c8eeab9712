/**
 * `npm run bench -- viewer [--points N] [--orbit S] [--tour N] [--work DIR]
 *   [--before DIR [--pairs N] [--reference-pairs N] [--shots DIR]]`: the viewer
 * in headless Chromium (/usr/bin/chromium, SwiftShader: software WebGL) on a
 * project of about 20 M points — copies of real files side by side
 * (bench/src/replica.ts: the bcts tiles and the AHN corridor) tiled by the
 * engine's tiler — served as the tiler wrote it by a static server, opened
 * by the app's own viewer modules (viewer-page.ts):
 *
 * - time from opening the page to the first points drawn (the first frame
 *   Cesium draws a tile of points in), and to every tile of the view loaded;
 * - frames per second while orbiting round the cloud (the camera turned a
 *   step each animation frame for `--orbit` seconds, 12°/s; frames counted
 *   by Cesium's postRender; the viewer caps at 20 fps, spec §9), with the
 *   median and 95th percentile frame interval;
 * - the tile cache (spec §9: 100 MB + 100 MB overflow): the camera flies
 *   close to `--tour` places that hold points (default 30 tiles of the
 *   deepest levels, spread over the tree), each until its tiles are loaded,
 *   and the tileset's memory is sampled every frame;
 *   the peak against the limit says whether the cache holds;
 * - in 2D (MapLibre + deck.gl): time to the sampled points drawn.
 *
 * Reference, same run, same way: the same measures on the real
 * `wires.laz` (1.7 M points), tiled by the same tiler.
 *
 * `--before DIR` (a checkout of older code with its own node_modules): the
 * same 3D and 2D measures, on the same tilesets, with a second page built from
 * DIR/web/src/viewer, the two pages alternated (viewer-before.ts): `--pairs`
 * (default 2) pairs on the replica, `--reference-pairs` (default 1) on
 * wires.laz; `--eye-dome` adds today's page with eye-dome lighting on (the old
 * viewer always had it; today it is a setting, off by default) as a third
 * side; `--shots DIR` saves each page's screenshots. Under `before`.
 *
 * Inputs are written under `--work` (default $TMPDIR/nuage-bench-viewer) and
 * reused while their point count matches.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { type Browser, chromium } from 'playwright-core';
import type { BenchSuite } from '../main.js';
import { writeReplica } from '../replica.js';
import { checkoutCommit, compareOnProject, type Measures, type Side, screenshots } from './viewer-before.js';
import { buildViewerPage, serveViewerPage } from './viewer-page.js';

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

const load = () => Math.round(loadavg()[0]! * 100) / 100;

/** A tiled project: its tileset folder and point count. */
interface Tiled {
  name: string;
  dir: string;
  points: number;
  tiles: number;
  tileSeconds: number | null;
}

/** Tiles `input` into `dir` unless a tileset of `points` points is already there. */
async function tiled(name: string, input: () => Promise<{ path: string; epsg?: number }>, dir: string): Promise<Tiled> {
  const tileset = path.join(dir, 'tileset.json');
  if (existsSync(tileset)) {
    const json = JSON.parse(await readFile(tileset, 'utf8')) as { extras?: { pointCount?: number } };
    const points = json.extras?.pointCount ?? 0;
    if (points > 0) return { name, dir, points, tiles: -1, tileSeconds: null };
  }
  const source = await input();
  await rm(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const r = await tilePointCloud(source.path, dir, source.epsg ? { epsg: source.epsg } : {});
  return {
    name,
    dir,
    points: r.pointCount,
    tiles: r.tileCount,
    tileSeconds: Math.round(performance.now() - t0) / 1000,
  };
}

interface PageRecord {
  events: Array<{ type: string; at: number; message?: string }>;
  firstTileVisible: number | null;
  frames: number[];
  errors: string[];
}

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** What the page's `tour` answers (viewer-page.ts). */
interface TourRecord {
  stops: number;
  tilesLoaded: number;
  peakBytes: number;
  lastBytes: number;
  cacheBytes: number;
  maximumCacheOverflowBytes: number;
  perStop: { ms: number; bytes: number; loaded: boolean }[];
}

/** Debian's Chromium with software WebGL, as the browser journeys launch it (web/e2e/projects-helpers.ts). */
function launch(): Promise<Browser> {
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
      '--no-first-run',
    ],
  });
}

/** A fresh browser on the bench page opening `project` in `mode`; the load average when it started. */
async function openViewer(base: string, project: Tiled, mode: '3d' | '2d', query: string) {
  const tileset = `${base}tiles/${project.name}/tileset.json`;
  const loadAtStart = load();
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}?mode=${mode}&tileset=${encodeURIComponent(tileset)}${query}`);
  return { loadAtStart, browser, page };
}

/** A 3D measure: first points, every tile of the first view, an orbit, and (with `tourStops` > 0) the tile cache. */
async function measure3d(base: string, project: Tiled, orbitSeconds: number, tourStops: number, query = '') {
  const { loadAtStart, browser, page } = await openViewer(base, project, '3d', query);
  await page.waitForFunction(
    () => {
      const b = (globalThis as unknown as { benchViewer?: PageRecord }).benchViewer;
      return Boolean(b && (b.firstTileVisible !== null || b.errors.length > 0));
    },
    null,
    { timeout: 300_000, polling: 50 },
  );
  await page
    .waitForFunction(
      () =>
        (globalThis as unknown as { benchViewer: PageRecord }).benchViewer.events.some((e) => e.type === 'tilesLoaded'),
      null,
      { timeout: 300_000, polling: 100 },
    )
    .catch(() => undefined);
  // The camera's flight to the cloud (2 s) ends before the orbit starts.
  await page.waitForTimeout(3000);
  const orbit = (await page.evaluate(
    (s) =>
      (
        globalThis as unknown as {
          benchViewer: { orbit(s: number): Promise<{ seconds: number; frames: number; times: number[] }> };
        }
      ).benchViewer.orbit(s),
    orbitSeconds,
  )) as { seconds: number; frames: number; times: number[] };
  // The tile cache (spec §9): a close tour over the cloud loads far more tiles than one view holds.
  const tour =
    tourStops > 0
      ? ((await page.evaluate(
          ([count, seconds]) =>
            (
              globalThis as unknown as {
                benchViewer: { tour(count: number, seconds: number): Promise<TourRecord> };
              }
            ).benchViewer.tour(count, seconds),
          [tourStops, 40] as const,
        )) as TourRecord)
      : null;
  const record = (await page.evaluate(() => {
    const b = (globalThis as unknown as { benchViewer: PageRecord }).benchViewer;
    return { events: b.events, firstTileVisible: b.firstTileVisible, frames: [], errors: b.errors };
  })) as PageRecord;
  const intervals = orbit.times.slice(1).map((t, i) => t - orbit.times[i]!);
  const at = (type: string) => record.events.find((e) => e.type === type)?.at ?? null;
  const figures = {
    viewerReadyMs: ms(at('ready')),
    firstPointsMs: ms(record.firstTileVisible),
    readyToFirstPointsMs: ms(record.firstTileVisible === null ? null : record.firstTileVisible - (at('ready') ?? 0)),
    tilesLoadedMs: ms(at('tilesLoaded')),
    orbitSeconds: Math.round(orbit.seconds * 100) / 100,
    orbitFrames: orbit.frames,
    framesPerSecond: Math.round((orbit.frames / orbit.seconds) * 10) / 10,
    medianFrameIntervalMs: ms(percentile(intervals, 50)),
    p95FrameIntervalMs: ms(percentile(intervals, 95)),
    ...(tour
      ? {
          tileCache: {
            stops: tour.stops,
            tilesLoaded: tour.tilesLoaded,
            peakMB: mb(tour.peakBytes),
            lastMB: mb(tour.lastBytes),
            limitMB: mb(tour.cacheBytes + tour.maximumCacheOverflowBytes),
            cacheMB: mb(tour.cacheBytes),
            holds: tour.peakBytes <= tour.cacheBytes + tour.maximumCacheOverflowBytes,
            perStopMB: tour.perStop.map((s) => mb(s.bytes)),
            stopsNotSettled: tour.perStop.filter((s) => !s.loaded).length,
          },
        }
      : {}),
    errors: record.errors,
    ...(tour ? {} : { loadAverageAtStart: loadAtStart }),
    loadAverage: load(),
  };
  await browser.close();
  return figures;
}

/** A 2D measure: the map samples the tileset (up to 1.5 M points) and draws them. */
async function measure2d(base: string, project: Tiled, withLoadAtStart = false, query = '') {
  const { loadAtStart, browser, page } = await openViewer(base, project, '2d', query);
  await page.waitForFunction(
    () => {
      const b = (globalThis as unknown as { benchViewer?: PageRecord }).benchViewer;
      return Boolean(b && (b.events.some((e) => e.type === 'tilesLoaded') || b.errors.length > 0));
    },
    null,
    { timeout: 300_000, polling: 100 },
  );
  const record = (await page.evaluate(
    () => (globalThis as unknown as { benchViewer: PageRecord }).benchViewer,
  )) as PageRecord;
  const at = (type: string) => record.events.find((e) => e.type === type)?.at ?? null;
  const figures = {
    viewerReadyMs: ms(at('ready')),
    sampledMs: ms(at('cloudInfo')),
    readyToPointsDrawnMs: ms((at('tilesLoaded') ?? Number.NaN) - (at('ready') ?? 0)),
    pointsDrawnMs: ms(at('tilesLoaded')),
    errors: record.errors,
    ...(withLoadAtStart ? { loadAverageAtStart: loadAtStart } : {}),
    loadAverage: load(),
  };
  await browser.close();
  return figures;
}

/**
 * Opens the page on one tileset and measures, each mode in a browser of its
 * own (nothing cached, no shader compiled by an earlier measure).
 */
async function measure(base: string, project: Tiled, orbitSeconds: number, tourStops: number) {
  const figures: Record<string, unknown> = { points: project.points, loadAverageAtStart: load() };
  // 3D: first points, every tile of the first view, then an orbit and the tile cache.
  figures.threeD = await measure3d(base, project, orbitSeconds, tourStops);
  figures.twoD = await measure2d(base, project);
  return figures;
}

const suite: BenchSuite = {
  description:
    'the viewer in headless Chromium (SwiftShader) on a ~20 M-point real-replica project: time to first points, fps while orbiting; reference wires.laz (1.7 M)',
  async run(args) {
    const target = Number(arg(args, '--points', '20000000'));
    const orbitSeconds = Number(arg(args, '--orbit', '10'));
    const tourStops = Number(arg(args, '--tour', '30'));
    const work = arg(args, '--work', path.join(tmpdir(), 'nuage-bench-viewer'));
    await mkdir(work, { recursive: true });
    const loadAtStart = load();

    const reference = await tiled(
      'wires',
      async () => ({ path: realFile('wires.laz') }),
      path.join(work, 'tiles-wires'),
    );
    const bigDir = path.join(work, `tiles-replica-${target}`);
    const big = await tiled(
      'replica',
      async () => {
        const r = await writeReplica(path.join(work, 'replica.las'), target * 30);
        return { path: r.path, epsg: r.epsg };
      },
      bigDir,
    );
    await rm(path.join(work, 'replica.las'), { force: true });

    const t0 = performance.now();
    const dist = await buildViewerPage(path.join(work, 'page'));
    const buildSeconds = Math.round(performance.now() - t0) / 1000;
    const served = await serveViewerPage(dist, { wires: reference.dir, replica: big.dir });
    const version = await launch().then(async (b) => {
      const v = b.version();
      await b.close();
      return v;
    });
    // --before DIR: a second page from an older checkout's viewers, measured in the same run.
    const beforeDir = arg(args, '--before', '');
    let before: { dist: string; buildSeconds: number; served: Awaited<ReturnType<typeof serveViewerPage>> } | null =
      null;
    if (beforeDir) {
      const t1 = performance.now();
      const beforeDist = await buildViewerPage(path.join(work, 'page-before'), path.resolve(beforeDir));
      before = {
        dist: beforeDist,
        buildSeconds: Math.round(performance.now() - t1) / 1000,
        served: await serveViewerPage(beforeDist, { wires: reference.dir, replica: big.dir }),
      };
    }
    try {
      const referenceFigures = await measure(served.url, reference, orbitSeconds, tourStops);
      const bigFigures = await measure(served.url, big, orbitSeconds, tourStops);
      let beforeFigures: Record<string, unknown> | undefined;
      if (before) {
        const pairs = Number(arg(args, '--pairs', '2'));
        const referencePairs = Number(arg(args, '--reference-pairs', '1'));
        const measures: Measures = {
          // The tile cache tour is left out: the comparison is of first points and orbit fps.
          threeD: (base, project, query) => measure3d(base, project as Tiled, orbitSeconds, 0, query),
          twoD: (base, project, query) => measure2d(base, project as Tiled, true, query),
          launch,
        };
        const log = (line: string) => console.log(line);
        const shotsDir = arg(args, '--shots', '');
        // Today's page (default settings), the old page, and with --eye-dome today's page with eye-dome lighting on.
        const sides: Side[] = [
          { label: 'now', base: served.url },
          { label: 'before', base: before.served.url },
          ...(args.includes('--eye-dome') ? [{ label: 'nowEyeDome', base: served.url, query: '&edl=1' }] : []),
        ];
        beforeFigures = {
          dir: path.resolve(beforeDir),
          commit: checkoutCommit(beforeDir),
          pageBuildSeconds: before.buildSeconds,
          method:
            'the same measures (tile cache tour left out) on a page built from the older checkout’s web/src/viewer with its own node_modules, the same tilesets; pages alternated new, old, new, old…, a fresh browser per measure; medians over the pairs; ratio = new / old',
          loadAverageAtStart: load(),
          project: await compareOnProject(measures, sides, big, pairs, log),
          ...(referencePairs > 0
            ? {
                reference: await compareOnProject(measures, sides, reference, referencePairs, log),
              }
            : {}),
          ...(shotsDir
            ? {
                screenshots: await screenshots(
                  measures,
                  { now: served.url, before: before.served.url },
                  big,
                  path.resolve(shotsDir),
                ),
              }
            : {}),
          loadAverageAtEnd: load(),
        };
      }
      return {
        cores: (await import('node:os')).cpus().length,
        loadAverageAtStart: loadAtStart,
        browser: `Chromium ${version} (SwiftShader, headless), viewport 1280×800`,
        method:
          'the app viewers (web/src/viewer) built by Vite into a bench page, the tiler output served by a static server; ms counted from navigation start; a fresh browser per measure',
        pageBuildSeconds: buildSeconds,
        project: { ...big, dir: undefined, figures: bigFigures },
        reference: { ...reference, dir: undefined, figures: referenceFigures },
        loadAverageAtEnd: load(),
        ...(beforeFigures ? { before: beforeFigures } : {}),
      };
    } finally {
      served.server.close();
      before?.served.server.close();
    }
  },
};

export default suite;
