import { describe, expect, it } from 'vitest';
import { centroidOf, measurePolygon, measurePolyline, measureSegment } from './measure-geometry.js';

const METRES = { horizontal: 1, vertical: 1 };
const INTERNATIONAL_FEET = { horizontal: 0.3048, vertical: 0.3048 };

describe('measureSegment', () => {
  it('gives the 3D, horizontal and vertical distances of a 3-4-12 segment', () => {
    const s = measureSegment({ x: 10, y: 20, z: 100 }, { x: 13, y: 24, z: 112 }, METRES);
    expect(s.horizontal).toBeCloseTo(5, 12);
    expect(s.vertical).toBeCloseTo(12, 12);
    expect(s.distance3d).toBeCloseTo(13, 12);
    expect(s.slopePercent).toBeCloseTo(240, 10);
  });

  it('keeps the sign of the height difference and has no slope when vertical', () => {
    const s = measureSegment({ x: 0, y: 0, z: 10 }, { x: 0, y: 0, z: 4 }, METRES);
    expect(s).toEqual({ horizontal: 0, vertical: -6, distance3d: 6, slopePercent: null });
  });

  it('converts feet coordinates to metres', () => {
    const s = measureSegment(
      { x: 636_000, y: 849_000, z: 400 },
      { x: 636_300, y: 849_400, z: 400 },
      INTERNATIONAL_FEET,
    );
    expect(s.horizontal).toBeCloseTo(500 * 0.3048, 9);
    expect(s.distance3d).toBeCloseTo(152.4, 9);
  });

  it('stays exact on large projected coordinates', () => {
    const a = { x: 712_345.678, y: 6_543_210.123, z: 55.5 };
    const b = { x: 712_345.678 + 0.006, y: 6_543_210.123 + 0.008, z: 55.5 };
    expect(measureSegment(a, b, METRES).horizontal).toBeCloseTo(0.01, 8);
  });
});

describe('measurePolyline', () => {
  it('sums segments and gives the net height difference, ascent and descent', () => {
    const p = measurePolyline(
      [
        { x: 0, y: 0, z: 0 },
        { x: 3, y: 4, z: 12 },
        { x: 3, y: 4, z: 2 },
        { x: 9, y: 12, z: 2 },
      ],
      METRES,
    );
    expect(p.segments.map((s) => s.distance3d)).toEqual([13, 10, 10]);
    expect(p.distance3d).toBeCloseTo(33, 12);
    expect(p.horizontal).toBeCloseTo(15, 12);
    expect(p.vertical).toBe(2);
    expect(p.ascent).toBe(12);
    expect(p.descent).toBe(10);
  });

  it('is zero for a single vertex', () => {
    expect(measurePolyline([{ x: 1, y: 1, z: 1 }], METRES)).toMatchObject({
      distance3d: 0,
      horizontal: 0,
      vertical: 0,
    });
  });
});

describe('measurePolygon', () => {
  it('gives the area and perimeter of a 30 × 20 m rectangle, either winding, at UTM coordinates', () => {
    const ring = [
      { x: 500_000, y: 4_427_000, z: 0 },
      { x: 500_030, y: 4_427_000, z: 5 },
      { x: 500_030, y: 4_427_020, z: 9 },
      { x: 500_000, y: 4_427_020, z: 1 },
    ];
    expect(measurePolygon(ring, METRES)).toEqual({ area: 600, perimeter: 100 });
    expect(measurePolygon([...ring].reverse(), METRES)).toEqual({ area: 600, perimeter: 100 });
  });

  it('gives the area of a right triangle and of an L shape', () => {
    const tri = measurePolygon(
      [
        { x: 0, y: 0, z: 0 },
        { x: 6, y: 0, z: 0 },
        { x: 0, y: 8, z: 0 },
      ],
      METRES,
    );
    expect(tri.area).toBeCloseTo(24, 12);
    expect(tri.perimeter).toBeCloseTo(24, 12);
    const l = measurePolygon(
      [
        { x: 0, y: 0, z: 0 },
        { x: 4, y: 0, z: 0 },
        { x: 4, y: 1, z: 0 },
        { x: 1, y: 1, z: 0 },
        { x: 1, y: 3, z: 0 },
        { x: 0, y: 3, z: 0 },
      ],
      METRES,
    );
    expect(l.area).toBeCloseTo(6, 12);
    expect(l.perimeter).toBeCloseTo(14, 12);
  });

  it('gives square metres for a CRS in US survey feet', () => {
    const usFoot = 1200 / 3937;
    const square = [
      { x: 0, y: 0, z: 0 },
      { x: 1000, y: 0, z: 0 },
      { x: 1000, y: 1000, z: 0 },
      { x: 0, y: 1000, z: 0 },
    ];
    expect(measurePolygon(square, { horizontal: usFoot, vertical: usFoot }).area).toBeCloseTo(
      1_000_000 * usFoot ** 2,
      6,
    );
  });

  it('has no area below three vertices', () => {
    expect(measurePolygon([{ x: 0, y: 0, z: 0 }], METRES).area).toBe(0);
    expect(
      measurePolygon(
        [
          { x: 0, y: 0, z: 0 },
          { x: 5, y: 0, z: 0 },
        ],
        METRES,
      ),
    ).toEqual({ area: 0, perimeter: 10 });
  });
});

it('centroidOf averages the vertices', () => {
  expect(
    centroidOf([
      { x: 0, y: 0, z: 0 },
      { x: 2, y: 4, z: 6 },
    ]),
  ).toEqual({ x: 1, y: 2, z: 3 });
});
