import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { pointGraph, roughness, smoothSegments } from './surface.js';

/**
 * A 60 m × 60 m grid, one point per 1.5 m: flat ground at 100 m west of
 * x = 30, a 35° bank rising east of it to a 5 m terrace at x = 37, a 12 m ×
 * 12 m flat roof 4 m above the ground at (9..21, 9..21), and a 6 m × 6 m
 * shrub of random heights (0.5–2.5 m) at (39..45, 45..51) on the terrace.
 */
function scene(): { cloud: PointChunk; kind: string[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const kind: string[] = [];
  let seed = 11;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let x = 0; x <= 60; x += 1.5) {
    for (let y = 0; y <= 60; y += 1.5) {
      const terrain = 100 + Math.min(5, Math.max(0, (x - 30) * Math.tan((35 * Math.PI) / 180)));
      let z = terrain;
      let k = x > 30 && x < 37 ? 'bank' : 'ground';
      if (x >= 9 && x <= 21 && y >= 9 && y <= 21) {
        z = 104;
        k = 'roof';
      } else if (x >= 39 && x <= 45 && y >= 45 && y <= 51) {
        z = terrain + 0.5 + 2 * random();
        k = 'shrub';
      }
      xs.push(x);
      ys.push(y);
      zs.push(z);
      kind.push(k);
    }
  }
  const cloud = { count: xs.length, x: Float64Array.from(xs), y: Float64Array.from(ys), z: Float64Array.from(zs) };
  return { cloud, kind };
}

describe('smooth surfaces of a cloud (TIN graph, roughness, segments)', () => {
  const { cloud, kind } = scene();
  const graph = pointGraph(cloud, null, 1.5);

  it('links every point to its TIN neighbours, both ways', () => {
    for (let i = 0; i < cloud.count; i++) {
      const n = graph.start[i + 1]! - graph.start[i]!;
      expect(n).toBeGreaterThanOrEqual(2);
      for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
        const j = graph.neighbours[q]!;
        expect(Array.from(graph.neighbours.subarray(graph.start[j]!, graph.start[j + 1]!))).toContain(i);
      }
    }
  });

  it('finds planar ground, bank and roof smooth, and the shrub rough', () => {
    const r = roughness(cloud, graph);
    const mean = (k: string) => {
      let s = 0;
      let n = 0;
      for (let i = 0; i < cloud.count; i++) {
        // Inner points only: the edges of a patch mix two surfaces (the cloud's corners, with 2 neighbours, have none).
        if (
          kind[i] !== k ||
          Number.isNaN(r[i]!) ||
          graph.neighbours.subarray(graph.start[i]!, graph.start[i + 1]!).some((j) => kind[j] !== k)
        )
          continue;
        s += r[i]!;
        n++;
      }
      return s / n;
    };
    expect(mean('ground')).toBeLessThan(0.01);
    expect(mean('bank')).toBeLessThan(0.01);
    expect(mean('roof')).toBeLessThan(0.01);
    expect(mean('shrub')).toBeGreaterThan(0.3);
  });

  it('keeps ground and the 35° bank one surface, and cuts the roof off at its walls', () => {
    const segment = smoothSegments(cloud, graph, { step: 0.5, stepSlope: 0.3, maxEdge: 4 });
    const ground = segment[kind.indexOf('ground')]!;
    const roof = segment[kind.indexOf('roof')]!;
    expect(roof).not.toBe(ground);
    for (let i = 0; i < cloud.count; i++) {
      if (kind[i] === 'ground' || kind[i] === 'bank') expect(segment[i]).toBe(ground);
      if (kind[i] === 'roof') expect(segment[i]).toBe(roof);
    }
  });

  it('leaves excluded points out of the graph and of every segment', () => {
    const exclude = new Uint8Array(cloud.count);
    exclude[5] = 1;
    const g = pointGraph(cloud, exclude, 1.5);
    expect(g.start[6]! - g.start[5]!).toBe(0);
    expect(Array.from(g.neighbours)).not.toContain(5);
    expect(smoothSegments(cloud, g, { step: 0.5, stepSlope: 0.3, maxEdge: 4 })[5]).toBe(-1);
  });
});
