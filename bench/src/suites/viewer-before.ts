/**
 * The viewer bench's "before/after" (`--before DIR`): the same measures on a
 * second page built from an older checkout's web/src/viewer (DIR, with its own
 * node_modules), in the same run, on the same tilesets (today's tiler), old and
 * new pages alternated (new, old, new, old…), a fresh browser per measure.
 * Ratios are new / old of the medians over the pairs: below 1 for the first
 * points' ms is faster now, above 1 for the frames per second is smoother now.
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';

interface Project {
  name: string;
  points: number;
}

type Figures = Record<string, unknown>;

/** The measures viewer.bench.ts makes, handed in (one browser each). */
export interface Measures {
  threeD(base: string, project: Project, query?: string): Promise<Figures>;
  twoD(base: string, project: Project, query?: string): Promise<Figures>;
  launch(): Promise<Browser>;
}

/** One page measured in each pair: `label` names it in the figures (`now`, `before`, …); `query` is added to its URL. */
export interface Side {
  label: string;
  base: string;
  query?: string;
}

function median(values: number[]): number | null {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const round = (v: number | null, digits: number) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

const ratio = (now: number | null, before: number | null) =>
  now === null || before === null || before === 0 ? null : round(now / before, 3);

/** The commit a checkout is at (read only). */
export function checkoutCommit(dir: string): string | null {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** The measured fields compared, by mode: [field, digits of the median]. */
const COMPARED = {
  threeD: [
    ['firstPointsMs', 0],
    ['readyToFirstPointsMs', 0],
    ['viewerReadyMs', 0],
    ['tilesLoadedMs', 0],
    ['framesPerSecond', 2],
    ['medianFrameIntervalMs', 0],
    ['p95FrameIntervalMs', 0],
  ],
  twoD: [
    ['pointsDrawnMs', 0],
    ['readyToPointsDrawnMs', 0],
    ['viewerReadyMs', 0],
  ],
} as const;

type Pair = Record<string, Record<string, Figures>>;

/** Medians per side over the pairs, and each side's ratio to `before` (`ratio` for `now`, `ratio<Side>` for others). */
function summarise(pairs: Pair[], sides: Side[]) {
  const out: Record<string, unknown> = {};
  for (const [mode, fields] of Object.entries(COMPARED)) {
    const medians: Record<string, Record<string, number | null>> = {};
    for (const side of sides) {
      medians[side.label] = {};
      for (const [field] of fields) {
        medians[side.label]![field] = median(
          pairs.map((p) =>
            Number((p[side.label]?.[mode] as Record<string, unknown> | undefined)?.[field] ?? Number.NaN),
          ),
        );
      }
    }
    const figures: Record<string, unknown> = {};
    for (const side of sides) {
      const key = `median${side.label[0]!.toUpperCase()}${side.label.slice(1)}`;
      figures[key] = Object.fromEntries(fields.map(([f, digits]) => [f, round(medians[side.label]![f]!, digits)]));
    }
    for (const side of sides) {
      if (side.label === 'before') continue;
      const key = side.label === 'now' ? 'ratio' : `ratio${side.label[0]!.toUpperCase()}${side.label.slice(1)}`;
      figures[key] = Object.fromEntries(
        fields.map(([f]) => [f, ratio(medians[side.label]![f]!, medians.before?.[f] ?? null)]),
      );
    }
    out[mode] = figures;
  }
  return out;
}

/**
 * Measures `project` on each side's page `pairs` times (3D then 2D, the sides
 * in their order in each pair: new, old, …); answers each measure (with its
 * load average) and the medians and ratios.
 */
export async function compareOnProject(
  measures: Measures,
  sides: Side[],
  project: Project,
  pairs: number,
  log: (line: string) => void = () => undefined,
) {
  const runs: Pair[] = [];
  for (let i = 0; i < pairs; i++) {
    const pair: Pair = {};
    for (const side of sides) {
      const threeD = await measures.threeD(side.base, project, side.query ?? '');
      const twoD = await measures.twoD(side.base, project, side.query ?? '');
      pair[side.label] = { threeD, twoD };
      const d3 = threeD as { firstPointsMs?: number; framesPerSecond?: number };
      const d2 = twoD as { pointsDrawnMs?: number };
      log(
        `viewer before/after: ${project.name} pair ${i + 1} ${side.label}: first points ${d3.firstPointsMs} ms, ${d3.framesPerSecond} fps, 2D drawn ${d2.pointsDrawnMs} ms`,
      );
    }
    runs.push(pair);
  }
  return { points: project.points, pairs: runs, ...summarise(runs, sides) };
}

/**
 * Screenshots (not measured): each page in 3D at its first points and once the
 * view's tiles are loaded, and in 2D once the points are drawn, into `dir` as
 * `<label>-<project>-3d-first-points.png`, `…-3d-loaded.png`, `…-2d.png`.
 */
export async function screenshots(
  measures: Measures,
  pages: Record<string, string>,
  project: Project,
  dir: string,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [label, base] of Object.entries(pages)) {
    const tileset = `${base}tiles/${project.name}/tileset.json`;
    for (const mode of ['3d', '2d'] as const) {
      const browser = await measures.launch();
      try {
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
        await page.goto(`${base}?mode=${mode}&tileset=${encodeURIComponent(tileset)}`);
        const stem = path.join(dir, `${label}-${project.name}-${mode}`);
        if (mode === '3d') {
          await page.waitForFunction(
            () => {
              const b = (globalThis as { benchViewer?: { firstTileVisible: number | null; errors: string[] } })
                .benchViewer;
              return Boolean(b && (b.firstTileVisible !== null || b.errors.length > 0));
            },
            null,
            { timeout: 300_000, polling: 50 },
          );
          await page.screenshot({ path: `${stem}-first-points.png` });
          written.push(`${stem}-first-points.png`);
        }
        await page.waitForFunction(
          () => {
            const b = (globalThis as { benchViewer?: { events: { type: string }[]; errors: string[] } }).benchViewer;
            return Boolean(b && (b.events.some((e) => e.type === 'tilesLoaded') || b.errors.length > 0));
          },
          null,
          { timeout: 300_000, polling: 100 },
        );
        // The 3D camera's flight to the cloud takes 2 s.
        await page.waitForTimeout(mode === '3d' ? 3000 : 500);
        const file = mode === '3d' ? `${stem}-loaded.png` : `${stem}.png`;
        await page.screenshot({ path: file });
        written.push(file);
      } finally {
        await browser.close();
      }
    }
  }
  return written;
}
