import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { featureRow, featureRows, geoJsonToEwkb, packedRows, packFeatures, unpackFeatures } from './ewkb.js';
import type { Feature } from './geojson.writer.js';

const FEATURES: Feature[] = [
  { type: 'Feature', geometry: { type: 'Point', coordinates: [5.123456789, 52.1] }, properties: { id: 1 } },
  {
    type: 'Feature',
    geometry: {
      type: 'LineString',
      coordinates: [
        [5.1, 52.2, 30.5],
        [5.2, 52.3, 28.25],
        [5.3, 52.4, 31],
      ],
    },
    properties: { conductorId: 'c-1', sag: 1.5, note: 'line\nwith "quotes"' },
  },
  {
    type: 'Feature',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
        [
          [0.2, 0.2],
          [0.3, 0.2],
          [0.3, 0.3],
          [0.2, 0.2],
        ],
      ],
    },
    properties: { zone: 2, pointCount: 17, ok: true, none: null },
  },
  // Refused by the encoder (a NaN): crosses as GeoJSON text, for PostGIS to judge as before.
  { type: 'Feature', geometry: { type: 'Point', coordinates: [Number.NaN, 1] }, properties: {} },
  {
    type: 'Feature',
    geometry: {
      type: 'LineString',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    },
    properties: { elevation: 10 },
  },
];

describe('features packed for another thread', () => {
  it('give the rows the features give, geometry bytes and properties text', () => {
    const packed = [...packedRows(packFeatures(FEATURES))];
    const direct = FEATURES.map(featureRow);
    expect(packed.length).toBe(5);
    for (let i = 0; i < FEATURES.length; i++) {
      expect(packed[i]!.properties).toBe(direct[i]!.properties);
      expect(packed[i]!.geojson).toBe(direct[i]!.geojson);
      expect(packed[i]!.ewkb && Buffer.from(packed[i]!.ewkb!).toString('hex')).toBe(
        direct[i]!.ewkb && Buffer.from(direct[i]!.ewkb!).toString('hex'),
      );
    }
    expect(packed[3]!.ewkb).toBeNull();
    expect(packed[3]!.geojson).toBe('{"type":"Point","coordinates":[null,1]}');
    expect([...featureRows(FEATURES)]).toEqual(direct);
  });

  it('unpack to the same GeoJSON features', () => {
    const back = [...unpackFeatures(packFeatures(FEATURES))];
    // The refused NaN comes back as its JSON text read again (null), as a clone of the features would not; all else is equal.
    expect(back.filter((_, i) => i !== 3)).toEqual(FEATURES.filter((_, i) => i !== 3));
    expect(back[3]!.geometry.coordinates).toEqual([null, 1]);
  });

  it('cross a MessageChannel with the geometry bytes shared, not copied', async () => {
    const packed = packFeatures(FEATURES);
    const { port1, port2 } = new MessageChannel();
    const got = await new Promise<typeof packed>((resolve) => {
      port2.once('message', resolve);
      port1.postMessage(packed);
    });
    port1.close();
    port2.close();
    expect(got.ewkb.buffer).toBeInstanceOf(SharedArrayBuffer);
    got.ewkb[0] = 0;
    expect(packed.ewkb[0]).toBe(0);
    packed.ewkb[0] = 1;
    expect([...unpackFeatures(got)][1]).toEqual(FEATURES[1]);
  });

  it('writes EWKB as PostGIS does: byte order, type with Z and SRID flags, SRID 4326, doubles', () => {
    const hex = Buffer.from(geoJsonToEwkb({ type: 'Point', coordinates: [1, 2, 3] })).toString('hex');
    expect(hex).toBe(`01${'010000a0'}e6100000${'000000000000f03f'}${'0000000000000040'}${'0000000000000840'}`);
  });
});
