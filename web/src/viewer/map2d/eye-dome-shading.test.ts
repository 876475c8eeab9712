import { describe, expect, it } from 'vitest';
import {
  cameraDistance,
  type HeightImage,
  NEIGHBOUR_COUNT,
  neighbourOffsets,
  SHADE_FS,
  shadeAt,
} from './eye-dome-shading.js';

/** An 11 × 11 image: flat ground at 0 m for x < 5, a 10 m roof for x ≥ 5; `empty` pixels hold no point. */
function roofBesideGround(empty: Array<[number, number]> = []): HeightImage {
  const width = 11;
  const heights = new Float32Array(width * width);
  for (let y = 0; y < width; y++) for (let x = 0; x < width; x++) heights[y * width + x] = x >= 5 ? 10 : 0;
  for (const [x, y] of empty) heights[y * width + x] = Number.NaN;
  return { width, height: width, heights, maxHeight: 10 };
}

const SETTINGS = { strength: 1, radius: 1, distance: 300 };

describe('eye-dome shading of a top-down height image', () => {
  it('looks at 8 neighbours on a circle of the radius, rounded to pixels', () => {
    expect(neighbourOffsets(1)).toEqual([
      [1, 0],
      [1, 1],
      [0, 1],
      [-1, 1],
      [-1, 0],
      [-1, -1],
      [0, -1],
      [1, -1],
    ]);
    expect(neighbourOffsets(2)[1]).toEqual([1, 1]);
    expect(neighbourOffsets(3)[1]).toEqual([2, 2]);
    expect(neighbourOffsets(0).every(([x, y]) => x === 0 && y === 0)).toBe(true);
  });

  it('leaves flat ground and the roof top as they are, and pixels without a point alone', () => {
    const image = roofBesideGround([[2, 2]]);
    expect(shadeAt(image, 1, 8, SETTINGS)).toBe(1);
    expect(shadeAt(image, 8, 8, SETTINGS)).toBe(1);
    // The roof's edge: its lower neighbours are farther from the camera, they do not darken it.
    expect(shadeAt(image, 5, 5, SETTINGS)).toBe(1);
    expect(shadeAt(image, 2, 2, SETTINGS)).toBeNull();
  });

  it('darkens the ground at the foot of the roof by the classic formula', () => {
    // Ground 310 m from the camera, roof 300 m; 3 of the 8 neighbours are on the roof.
    const response = (3 * Math.log2(310 / 300)) / 8;
    const expected = Math.exp(-300 * response);
    expect(shadeAt(roofBesideGround(), 4, 5, SETTINGS)).toBeCloseTo(expected, 10);
    expect(expected).toBeLessThan(0.01);
    // Further from the camera (zoomed out), the same step shades less.
    const far = shadeAt(roofBesideGround(), 4, 5, { ...SETTINGS, distance: 3000 })!;
    expect(far).toBeCloseTo(Math.exp((-300 * 3 * Math.log2(3010 / 3000)) / 8), 10);
    expect(far).toBeGreaterThan(0.5);
  });

  it('grows with the strength and the radius; a half pixel radius mixes the pixel with its neighbour', () => {
    const image = roofBesideGround();
    const at = (strength: number, radius: number) => shadeAt(image, 3, 5, { strength, radius, distance: 3000 })!;
    // Two pixels from the roof: radius 1 sees only ground; radius 2 sees the roof.
    expect(at(1, 1)).toBe(1);
    expect(at(1, 2)).toBeLessThan(1);
    expect(at(2, 2)).toBeLessThan(at(1, 2));
    expect(at(2, 2)).toBeCloseTo(at(1, 2) ** 2, 10);
    // Radius 1.5 at the foot of the roof: neighbours at 1 and 2 px mixed half and half.
    // At 1 px, (1,0), (1,1) and (1,-1) are on the roof; at 2 px, (2,0), (1,1) and (1,-1) (the diagonals round down).
    const foot = shadeAt(image, 4, 5, { strength: 1, radius: 1.5, distance: 3000 })!;
    const depthAt = (dx: number) => (4 + dx >= 5 ? 3000 : 3010);
    const far = neighbourOffsets(2);
    const sum = neighbourOffsets(1)
      .map(([dx], i) => Math.max(0, Math.log2(3010) - Math.log2((depthAt(dx) + depthAt(far[i]![0])) / 2)))
      .reduce((a, b) => a + b, 0);
    expect(sum).toBeGreaterThan(0);
    expect(foot).toBeCloseTo(Math.exp((-300 * sum) / NEIGHBOUR_COUNT), 10);
    expect(foot).toBeLessThan(shadeAt(image, 4, 5, { strength: 1, radius: 0.5, distance: 3000 })!);
  });

  it('counts only the neighbours that hold a point (the edge of the cloud does not darken)', () => {
    const image = roofBesideGround([
      [0, 4],
      [0, 5],
      [0, 6],
    ]);
    expect(shadeAt(image, 1, 5, SETTINGS)).toBe(1);
    // At the roof's foot with one empty neighbour: 3 roof neighbours among the 7 left.
    const holed = roofBesideGround([[3, 5]]);
    expect(shadeAt(holed, 4, 5, SETTINGS)).toBeCloseTo(Math.exp((-300 * 3 * Math.log2(310 / 300)) / 7), 10);
  });

  it('puts the map camera altitude × screen height × metres per pixel away, at least 1 m', () => {
    expect(cameraDistance({ altitude: 1.5, height: 800, metresPerPixel: 0.25 })).toBe(300);
    expect(cameraDistance({ altitude: 1.5, height: 800, metresPerPixel: 1e-6 })).toBe(1);
  });

  it('the shader uses the same neighbour count and scale as the reference', () => {
    expect(SHADE_FS).toContain(`const int NEIGHBOUR_COUNT = ${NEIGHBOUR_COUNT};`);
    expect(SHADE_FS).toContain('exp(-response * 300.0 * eyeDomeShade.strength)');
    expect(SHADE_FS).toContain('floor(vec2(cos(a), sin(a)) * radius + 0.5)');
  });
});
