import { describe, expect, it } from 'vitest';
import {
  createDtmTerrainProvider,
  decodeTerrainTile,
  fetchTerrainInfo,
  geographicTileRectangle,
  subTileHeights,
  TERRAIN_TILE_SIZE,
  type TerrainInfo,
} from './dtm-terrain.js';

const N = TERRAIN_TILE_SIZE;

/** A tile as the API writes it (terrain.service.ts encodeTerrainTile). */
function encode(samples: Float32Array, width = N, height = N): ArrayBuffer {
  const out = new ArrayBuffer(8 + samples.length * 4);
  const view = new DataView(out);
  new Uint8Array(out).set([78, 84, 72, 49]); // "NTH1"
  view.setUint16(4, width, true);
  view.setUint16(6, height, true);
  for (let i = 0; i < samples.length; i++) view.setFloat32(8 + i * 4, samples[i]!, true);
  return out;
}

/** Heights rising 1 m a column eastwards and 0.5 m a row southwards, from `base`. */
function ramp(base: number): Float32Array {
  const s = new Float32Array(N * N);
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) s[j * N + i] = base + i + 0.5 * j;
  return s;
}

describe('decodeTerrainTile', () => {
  it('reads the samples little-endian and puts the fallback where the DTM has none', () => {
    const s = ramp(100);
    s[0] = Number.NaN;
    s[N * N - 1] = Number.NaN;
    const got = decodeTerrainTile(encode(s), -7.5);
    expect(got.length).toBe(N * N);
    expect(got[0]).toBe(-7.5);
    expect(got[1]).toBe(101);
    expect(got[N]).toBe(100.5);
    expect(got[N * N - 1]).toBe(-7.5);
    expect(got[N * N - 2]).toBeCloseTo(100 + 63 + 32, 4);
  });

  it('refuses what is not a tile: wrong magic, size or length', () => {
    const good = encode(ramp(0));
    const bad = good.slice(0);
    new DataView(bad).setUint8(0, 0x7b);
    expect(() => decodeTerrainTile(bad, 0)).toThrow(/magic/);
    expect(() => decodeTerrainTile(encode(new Float32Array(33 * 33), 33, 33), 0)).toThrow(/33×33/);
    expect(() => decodeTerrainTile(good.slice(0, 1000), 0)).toThrow(/truncated/);
    expect(() => decodeTerrainTile(new ArrayBuffer(3), 0)).toThrow(/too short/);
  });
});

describe('subTileHeights', () => {
  it('interpolates a child tile from its ancestor: a plane stays the same plane', () => {
    const parent = ramp(10);
    // dz = 1, the south-east child (odd x, odd y): starts at the parent's centre sample.
    const child = subTileHeights(parent, 1, 7, 3);
    expect(child[0]).toBeCloseTo(parent[32 * N + 32]!, 5);
    expect(child[N * N - 1]).toBeCloseTo(parent[N * N - 1]!, 5);
    // Half the parent's slope per sample.
    expect(child[1]! - child[0]!).toBeCloseTo(0.5, 5);
    expect(child[N]! - child[0]!).toBeCloseTo(0.25, 5);
    // dz = 2, the north-west grandchild: the parent's first quarter.
    const grand = subTileHeights(parent, 2, 8, 4);
    expect(grand[0]).toBeCloseTo(parent[0]!, 5);
    expect(grand[N - 1]).toBeCloseTo(parent[16]!, 5);
  });
});

describe('createDtmTerrainProvider', () => {
  // A DTM of ~100 m near Flagstaff (the MixedConifer plot), tiles served up to level 18.
  const info: TerrainInfo = {
    url: 'https://nuage.test/api/terrain/sig/1/projects/1/assets/2/r3/{z}/{x}/{y}.heights',
    west: -111.2015,
    south: 34.4497,
    east: -111.2005,
    north: 34.4505,
    maxLevel: 18,
    minHeight: -24.8,
    maxHeight: -21,
  };
  const tileOf = (lon: number, lat: number, z: number) => ({
    x: Math.floor((lon + 180) / (180 / 2 ** z)),
    y: Math.floor((90 - lat) / (180 / 2 ** z)),
  });

  it('fetches tiles over the DTM, answers flat tiles elsewhere without a request, interpolates below maxLevel', async () => {
    const asked: string[] = [];
    const fetcher = (async (url: string) => {
      asked.push(url);
      return new Response(encode(ramp(-24)), { status: 200 });
    }) as unknown as typeof fetch;
    const provider = createDtmTerrainProvider(info, -30, { fetcher });
    const callback = (provider as unknown as { _callback: (x: number, y: number, l: number) => unknown })._callback;
    const far = (await callback(0, 0, 3)) as Float32Array;
    expect(far.every((v) => v === -30)).toBe(true);
    expect(asked).toEqual([]);

    const at = tileOf(-111.201, 34.45, 16);
    const tile = (await callback(at.x, at.y, 16)) as Float32Array;
    expect(tile[1]).toBe(-23);
    expect(asked).toEqual([`https://nuage.test/api/terrain/sig/1/projects/1/assets/2/r3/16/${at.x}/${at.y}.heights`]);

    const deep = tileOf(-111.201, 34.45, 20);
    const child = (await callback(deep.x, deep.y, 20)) as Float32Array;
    const ancestor = tileOf(-111.201, 34.45, 18);
    expect(asked.at(-1)).toContain(`/18/${ancestor.x}/${ancestor.y}.heights`);
    // Two levels below: a quarter of the ancestor's slope per sample.
    expect(child[1]! - child[0]!).toBeCloseTo(1 / 4, 5);
    // The ancestor is fetched once for all its descendants.
    await callback(deep.x ^ 1, deep.y, 20);
    expect(asked.filter((u) => u.includes('/18/')).length).toBe(1);
  });

  it('stays flat (and says so once) when a tile cannot be fetched', async () => {
    const errors: Error[] = [];
    const fetcher = (async () => new Response('gone', { status: 403 })) as unknown as typeof fetch;
    const provider = createDtmTerrainProvider(info, 12, { fetcher, onError: (e) => errors.push(e) });
    const callback = (provider as unknown as { _callback: (x: number, y: number, l: number) => unknown })._callback;
    const at = tileOf(-111.201, 34.45, 15);
    expect(((await callback(at.x, at.y, 15)) as Float32Array).every((v) => v === 12)).toBe(true);
    await callback(at.x, at.y, 15);
    expect(errors.length).toBe(1);
    expect(errors[0]!.message).toContain('HTTP 403');
  });
});

describe('geographicTileRectangle and fetchTerrainInfo', () => {
  it('follows Cesium’s geographic scheme: 2 tiles at level 0, y from the north', () => {
    expect(geographicTileRectangle(0, 0, 0)).toEqual([-180, -90, 0, 90]);
    expect(geographicTileRectangle(3, 1, 1)).toEqual([90, -90, 180, 0]);
  });

  it('asks terrain-url-from-tiles-url with the tileset URL, null when the project has no DTM', async () => {
    const seen: string[] = [];
    const fetcher = (async (url: string) => {
      seen.push(url);
      return url.includes('nodtm')
        ? new Response('{}', { status: 404 })
        : Response.json({
            url: '/api/terrain/s/1/p/{z}/{x}/{y}.heights',
            west: 1,
            south: 2,
            east: 3,
            north: 4,
            maxLevel: 18,
          });
    }) as unknown as typeof fetch;
    const got = await fetchTerrainInfo('https://nuage.test/tiles/s/sig/9/projects/1/assets/2/t3/tileset.json', fetcher);
    expect(new URL(seen[0]!).pathname).toBe('/api/assets/custom-tiler/terrain-url-from-tiles-url');
    expect(new URL(seen[0]!).searchParams.get('tilesUrl')).toBe(
      'https://nuage.test/tiles/s/sig/9/projects/1/assets/2/t3/tileset.json',
    );
    expect(got?.url).toBe('https://nuage.test/api/terrain/s/1/p/{z}/{x}/{y}.heights');
    expect(await fetchTerrainInfo('https://nuage.test/tiles/s/nodtm/9/tileset.json', fetcher)).toBeNull();
  });
});
