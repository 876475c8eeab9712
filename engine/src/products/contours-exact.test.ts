// The contour tracing made faster must give exactly what the simple forms give:
// segment chaining against the map-of-lists walk it replaced, crossing repair
// against an all-pairs search.
import { describe, expect, it } from 'vitest';
import { createRaster } from '../raster/raster.js';
import {
  buildContours,
  type ContourLine,
  chaikin,
  chain,
  keepNonCrossing,
  SEGMENT_CELLS,
  SIMPLIFY_CELLS,
  simplifyLine,
  toleranceOfCells,
  vertexTolerances,
} from './contours.product.js';

/** The former chaining: a list of segments per grid edge, first unused one taken. */
function referenceChain(edges: number[], coords: number[]): { coords: Float64Array; closed: boolean }[] {
  const n = edges.length / 2;
  const byEdge = new Map<number, number[]>();
  for (let s = 0; s < n; s++) {
    for (let end = 0; end < 2; end++) {
      const e = edges[2 * s + end]!;
      byEdge.set(e, [...(byEdge.get(e) ?? []), s]);
    }
  }
  const used = new Uint8Array(n);
  const out: { coords: Float64Array; closed: boolean }[] = [];
  const other = (e: number) => byEdge.get(e)!.find((t) => !used[t]) ?? -1;
  const walk = (edge: number, push: (x: number, y: number) => void) => {
    for (;;) {
      const t = other(edge);
      if (t < 0) return edge;
      used[t] = 1;
      const flip = edges[2 * t] !== edge;
      push(flip ? coords[4 * t]! : coords[4 * t + 2]!, flip ? coords[4 * t + 1]! : coords[4 * t + 3]!);
      edge = flip ? edges[2 * t]! : edges[2 * t + 1]!;
    }
  };
  for (let s0 = 0; s0 < n; s0++) {
    if (used[s0]) continue;
    used[s0] = 1;
    const forward = coords.slice(4 * s0, 4 * s0 + 4);
    const closed = walk(edges[2 * s0 + 1]!, (x, y) => forward.push(x, y)) === edges[2 * s0];
    const backward: number[] = [];
    if (!closed) walk(edges[2 * s0]!, (x, y) => backward.unshift(x, y));
    out.push({ coords: Float64Array.from([...backward, ...forward]), closed });
  }
  return out;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Segments of random open lines and rings over distinct edge ids, shuffled and some reversed. */
function randomSegments(seed: number): { edges: number[]; coords: number[] } {
  const rnd = random(seed);
  const segments: [number, number, number, number, number, number][] = [];
  let nextEdge = Math.floor(rnd() * 1000);
  for (let line = 0; line < 40; line++) {
    const points = 2 + Math.floor(rnd() * 12);
    const ring = points >= 3 && rnd() < 0.4;
    const ids = Array.from({ length: points }, () => (nextEdge += 1 + Math.floor(rnd() * 50)));
    const xy = ids.map(() => [rnd() * 100, rnd() * 100] as const);
    const count = ring ? points : points - 1;
    for (let i = 0; i < count; i++) {
      const j = (i + 1) % points;
      segments.push([ids[i]!, ids[j]!, xy[i]![0], xy[i]![1], xy[j]![0], xy[j]![1]]);
    }
  }
  for (let i = segments.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [segments[i], segments[j]] = [segments[j]!, segments[i]!];
  }
  const edges: number[] = [];
  const coords: number[] = [];
  for (const [a, b, ax, ay, bx, by] of segments) {
    if (rnd() < 0.5) {
      edges.push(a, b);
      coords.push(ax, ay, bx, by);
    } else {
      edges.push(b, a);
      coords.push(bx, by, ax, ay);
    }
  }
  return { edges, coords };
}

function segmentsCross(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): boolean {
  const d = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    (qx - px) * (ry - py) - (qy - py) * (rx - px);
  const d1 = d(b[j]!, b[j + 1]!, b[j + 2]!, b[j + 3]!, a[i]!, a[i + 1]!);
  const d2 = d(b[j]!, b[j + 1]!, b[j + 2]!, b[j + 3]!, a[i + 2]!, a[i + 3]!);
  const d3 = d(a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!, b[j]!, b[j + 1]!);
  const d4 = d(a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!, b[j + 2]!, b[j + 3]!);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** The crossing repair by its definition: every pair of segments of different lines, rounds until none cross. */
function referenceRepair(raw: ContourLine[], smooth: ContourLine[]): { lines: ContourLine[]; rounds: number } {
  const lines = [...smooth];
  let rounds = 0;
  for (let round = 0; round < 8; round++) {
    // Segments sorted by their smallest x, each compared with those starting before it ends.
    const segs: { line: number; at: number; minX: number; maxX: number }[] = [];
    lines.forEach((l, line) => {
      const c = l.coordinates;
      for (let at = 0; at + 3 < c.length; at += 2) {
        segs.push({ line, at, minX: Math.min(c[at]!, c[at + 2]!), maxX: Math.max(c[at]!, c[at + 2]!) });
      }
    });
    segs.sort((a, b) => a.minX - b.minX);
    const revert = new Set<number>();
    for (let i = 0; i < segs.length; i++) {
      const a = segs[i]!;
      for (let j = i + 1; j < segs.length && segs[j]!.minX <= a.maxX; j++) {
        const b = segs[j]!;
        if (a.line === b.line) continue;
        if (lines[a.line] === raw[a.line] && lines[b.line] === raw[b.line]) continue;
        if (segmentsCross(lines[a.line]!.coordinates, a.at, lines[b.line]!.coordinates, b.at)) {
          revert.add(a.line);
          revert.add(b.line);
        }
      }
    }
    if (revert.size === 0) break;
    rounds++;
    for (const li of revert) lines[li] = raw[li]!;
  }
  return { lines, rounds };
}

/**
 * Dense parallel lines (60 a unit, so a bucket of 1 holds hundreds of
 * segments): raw lines straight, smooth ones half a spacing higher and
 * jittered. A few jitter past both neighbours (reverted at once); most only
 * reach the raw form of the line above, so they cross it once it is put back.
 */
function denseLines(seed: number): { raw: ContourLine[]; smooth: ContourLine[] } {
  const rnd = random(seed);
  const spacing = 1 / 60;
  const raw: ContourLine[] = [];
  const smooth: ContourLine[] = [];
  for (let i = 0; i < 120; i++) {
    const y = i * spacing;
    const r: number[] = [];
    const s: number[] = [];
    const jitter = (rnd() < 0.1 ? 1.6 : rnd() * 0.7) * spacing;
    for (let x = 0; x <= 3; x += 0.05) {
      r.push(x, y);
      s.push(x, y + spacing / 2 + (2 * rnd() - 1) * jitter);
    }
    const line = { elevation: i, kind: 'minor' as const, closed: false };
    raw.push({ ...line, coordinates: Float64Array.from(r) });
    smooth.push({ ...line, coordinates: Float64Array.from(s) });
  }
  return { raw, smooth };
}

describe('contour tracing, exact', () => {
  it('chains segments as the list-per-edge walk does (same lines, same order, same start points)', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const { edges, coords } = randomSegments(seed);
      const expected = referenceChain(edges, coords);
      const got = chain(edges, coords);
      expect(got.length).toBe(expected.length);
      expect(got.filter((l) => l.closed).length).toBeGreaterThan(0);
      got.forEach((line, i) => {
        expect(line.closed).toBe(expected[i]!.closed);
        expect(Array.from(line.coords)).toEqual(Array.from(expected[i]!.coords));
      });
    }
  });

  it('puts back the raw form of exactly the lines an all-pairs search finds crossing, round after round', () => {
    let severalRounds = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const { raw, smooth } = denseLines(seed);
      const expected = referenceRepair(raw, smooth);
      const got = [...smooth];
      keepNonCrossing(raw, got, 1);
      const reverted = got.filter((l, i) => l === raw[i]).length;
      expect(got.map((l) => (l === raw[l.elevation] ? 'raw' : 'smooth'))).toEqual(
        expected.lines.map((l) => (l === raw[l.elevation] ? 'raw' : 'smooth')),
      );
      // Some lines went back to their raw form, not all.
      expect(reverted).toBeGreaterThan(0);
      expect(reverted).toBeLessThan(raw.length);
      if (expected.rounds > 1) severalRounds++;
    }
    expect(severalRounds).toBeGreaterThan(0);
  });

  it('smooths and simplifies contour lines of a steep rough slope without any crossing (buckets split)', () => {
    // About 120 lines a cell, so that cells hold more pieces than DENSE_CELL.
    const W = 8;
    const dtm = createRaster(W, W, 0, W, 1, null);
    const rnd = random(7);
    for (let r = 0; r < W; r++) {
      for (let c = 0; c < W; c++) dtm.data[r * W + c] = 300 - 60 * Math.hypot(c - 3.5, r - 3) + rnd() * 40;
    }
    const raw = buildContours(dtm, { minorCm: 50, majorCm: 250, smoothing: 0 });
    const got = buildContours(dtm, { minorCm: 50, majorCm: 250, smoothing: 2 });
    // Tolerances as the product takes them: a twentieth of a cell, less where the lines crowd (all of them here).
    const allowed = toleranceOfCells(dtm, SIMPLIFY_CELLS, 0.5);
    expect(Math.max(...allowed)).toBeLessThan(SIMPLIFY_CELLS);
    const expected = referenceRepair(
      raw,
      raw.map((l) => {
        const smoothed = chaikin(l.coordinates, l.closed, 2);
        const each = vertexTolerances(dtm, allowed, smoothed);
        return { ...l, coordinates: simplifyLine(smoothed, each, SEGMENT_CELLS) };
      }),
    );
    expect(got.length).toBe(expected.lines.length);
    got.forEach((line, i) => {
      expect(Array.from(line.coordinates)).toEqual(Array.from(expected.lines[i]!.coordinates));
    });
  });
});
