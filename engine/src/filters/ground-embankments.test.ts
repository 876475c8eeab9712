import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { acceptEmbankments, type EmbankmentParameters } from './ground-embankments.js';
import { pointGraph } from './surface.js';

/** The filter's defaults in metres, for a 2 m point spacing. */
const PARAMETERS: EmbankmentParameters = {
  step: 0.5,
  stepSlope: 0.3,
  maxEdge: 6,
  minLength: 60,
  elongation: 4,
  minWidth: 8,
  minCrossFall: 0.25,
  maxSideSlope: 2,
};

/**
 * A flat 240 m × 120 m field sampled every 2 m (slightly jittered, as a scan
 * is) with one raised object of height `height(x, y)`; every point under
 * 0.5 m is ground, as the opening leaves it.
 */
function field(height: (x: number, y: number) => number): { cloud: PointChunk; ground: Uint8Array } {
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  for (let r = 0; r < 60; r++) {
    for (let c = 0; c < 120; c++) {
      const x = 2 * c + 0.3 * Math.sin(7 * r + 3 * c);
      const y = 2 * r + 0.3 * Math.cos(5 * c + 2 * r);
      xs.push(x);
      ys.push(y);
      zs.push(height(x, y));
    }
  }
  const cloud = { count: xs.length, x: Float64Array.from(xs), y: Float64Array.from(ys), z: Float64Array.from(zs) };
  return { cloud, ground: Uint8Array.from(zs, (z) => (z < 0.5 ? 1 : 0)) };
}

/** Points not ground before, and ground after the embankment test. */
function run(height: (x: number, y: number) => number): { raised: number; accepted: number } {
  const { cloud, ground } = field(height);
  const raised = ground.length - ground.reduce((a, b) => a + b, 0);
  const accepted = acceptEmbankments(cloud, null, pointGraph(cloud, null, 2), ground, PARAMETERS);
  return { raised, accepted };
}

describe('embankments: long earthworks rejoin the ground, buildings do not', () => {
  it('takes a 160 m long dam, 7 m high with 1:2 flanks, as ground', () => {
    // Crest 4 m wide along y = 60 from x = 40 to 200, flanks falling 1 m per 2 m.
    const dam = (x: number, y: number) => {
      const along = Math.max(0, 40 - x, x - 200);
      return Math.max(0, 7 - Math.max(0, Math.abs(y - 60) - 2) / 2 - along / 2);
    };
    const { raised, accepted } = run(dam);
    expect(raised).toBeGreaterThan(1000);
    // All but a stray corner point, cut off by the jitter.
    expect(accepted).toBeGreaterThanOrEqual(0.99 * raised);
  });

  it('leaves a 30 m long mound of the same section (a building-sized object) out', () => {
    const mound = (x: number, y: number) => {
      const along = Math.max(0, 105 - x, x - 135);
      return Math.max(0, 7 - Math.max(0, Math.abs(y - 60) - 2) / 2 - along / 2);
    };
    const { raised, accepted } = run(mound);
    expect(raised).toBeGreaterThan(100);
    expect(accepted).toBe(0);
  });

  it('leaves a 160 m long, 4 m wide, 2 m high hedge out', () => {
    const hedge = (x: number, y: number) => (x > 40 && x < 200 && Math.abs(y - 60) < 2 ? 2 : 0);
    const { raised, accepted } = run(hedge);
    expect(raised).toBeGreaterThan(100);
    expect(accepted).toBe(0);
  });

  it('leaves a 160 m × 16 m flat top 3 m up with 1:1 flanks (a low flat roof seen sparsely) out', () => {
    const flat = (x: number, y: number) => (x > 40 && x < 200 ? Math.max(0, Math.min(3, 8 - Math.abs(y - 60))) : 0);
    const { raised, accepted } = run(flat);
    expect(raised).toBeGreaterThan(400);
    expect(accepted).toBe(0);
  });

  it('leaves a 160 m × 14 m walled hall (a roof 7 m up, walls one spacing wide) out', () => {
    const hall = (x: number, y: number) => (x > 40 && x < 200 && Math.abs(y - 60) < 7 ? 7 : 0);
    const { raised, accepted } = run(hall);
    expect(raised).toBeGreaterThan(400);
    expect(accepted).toBe(0);
  });
});
