import { describe, expect, it } from 'vitest';
import { decodeMvt } from '../../test/mvt.js';
import { encodeMvt } from './mvt-encoder.js';

/** The lines of a one-feature-per-line tile, as decoded. */
function lines(coordinates: number[][][]) {
  const features = coordinates.map((line, i) => ({
    id: i + 1,
    properties: {},
    geometry: { type: 'LineString' as const, coordinates: line },
  }));
  return decodeMvt(encodeMvt('l', features))[0]?.features.map((f) => [f.id, f.geometry]) ?? [];
}

describe('MVT encoder (lines as ST_AsMVTGeom leaves them)', () => {
  it('drops a closed line with no area (PostGIS 3.3: NULL), keeps a closed triangle and open lines', () => {
    // Checked with ST_AsMVTGeom on the project's PostGIS: the first two give NULL, the others a LINESTRING.
    const got = lines([
      [
        [10, 10],
        [20, 10],
        [10, 10],
      ],
      [
        [10, 10],
        [20, 10],
        [30, 10],
        [10, 10],
      ],
      [
        [10, 10],
        [20, 10],
        [20, 20],
        [10, 10],
      ],
      [
        [10, 10],
        [20, 10],
        [15, 10],
      ],
    ]);
    expect(got.map(([id]) => id)).toEqual([3, 4]);
    expect(got[0]![1]).toEqual([
      [
        [10, 10],
        [20, 10],
        [20, 20],
        [10, 10],
      ],
    ]);
  });
});
