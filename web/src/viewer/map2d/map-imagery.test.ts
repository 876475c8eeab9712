import { describe, expect, it } from 'vitest';
import { bingTiles, IGN_TILES, MapImageryUnavailable, worldSource } from './map-imagery.js';

describe('world imagery on the 2D map', () => {
  it('shows nothing for "none" and IGN without a key', async () => {
    await expect(worldSource('none', {})).resolves.toBeNull();
    await expect(worldSource('ign', {})).resolves.toEqual({
      tiles: [IGN_TILES],
      attribution: 'IGN-F/Géoportail',
      maxzoom: 19,
    });
  });

  it('says a key is missing for Bing and Cesium without one, before any request', async () => {
    for (const choice of ['bing', 'cesium'] as const) {
      const err = await worldSource(choice, { bingMapsKey: '', cesiumIonToken: undefined }).catch((e: unknown) => e);
      expect(err, choice).toBeInstanceOf(MapImageryUnavailable);
      expect((err as MapImageryUnavailable).problem, choice).toBe('missingKey');
    }
  });

  it('says the service is unreachable when its metadata does not come (this machine has no network, or the key is refused)', async () => {
    for (const choice of ['bing', 'cesium'] as const) {
      const err = await worldSource(choice, { bingMapsKey: 'not-a-key', cesiumIonToken: 'not-a-token' }).catch(
        (e: unknown) => e,
      );
      expect(err, choice).toBeInstanceOf(MapImageryUnavailable);
      expect((err as MapImageryUnavailable).problem, choice).toBe('unreachable');
    }
  }, 60_000);

  it("turns Bing's imagery metadata into MapLibre tile URLs, one per subdomain, over https", () => {
    const source = bingTiles({
      resourceSets: [
        {
          resources: [
            {
              imageUrl: 'http://ecn.{subdomain}.tiles.virtualearth.net/tiles/a{quadkey}.jpeg?g=14',
              imageUrlSubdomains: ['t0', 't1'],
              zoomMax: 21,
            },
          ],
        },
      ],
    });
    expect(source).toEqual({
      tiles: [
        'https://ecn.t0.tiles.virtualearth.net/tiles/a{quadkey}.jpeg?g=14',
        'https://ecn.t1.tiles.virtualearth.net/tiles/a{quadkey}.jpeg?g=14',
      ],
      attribution: '© Microsoft',
      maxzoom: 21,
    });
    expect(() => bingTiles({ resourceSets: [] })).toThrow(MapImageryUnavailable);
  });
});
