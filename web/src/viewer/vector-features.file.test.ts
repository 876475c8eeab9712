import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureColor, fetchLayerFeatures, fetchSuppliedFeatures } from './vector-features.js';

/** Two conductors with their heights, as a POWER_LINE GeoJSON file holds them (EPSG:4326, Z kept). */
const CONDUCTORS = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [-112.18782, 35.24797, 7.152],
          [-112.18781, 35.24798, 6.941],
        ],
      },
      properties: { kind: 'conductor', spanId: 1 },
    },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-112.1878, 35.248, 12.5] },
      properties: { kind: 'tower', height: 11.2 },
    },
  ],
};

describe('a vector layer read from its GeoJSON file (file-supplier-url), on a real HTTP server', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api/assets/custom-tiler/file-supplier-url') {
        const id = url.searchParams.get('id');
        if (id === 'missing') {
          res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"code":"NOT_FOUND"}}');
          return;
        }
        const target = id === 'broken' ? '/files/not-geojson.json' : '/files/power-lines.geojson?sig=abc';
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: target, fileName: 'x' }));
        return;
      }
      if (url.pathname === '/files/power-lines.geojson') {
        res.writeHead(200, { 'Content-Type': 'application/geo+json' }).end(JSON.stringify(CONDUCTORS));
        return;
      }
      if (url.pathname === '/files/not-geojson.json') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"hello":1}');
        return;
      }
      if (url.pathname === '/ogc/collections/7/items') {
        res
          .writeHead(200, { 'Content-Type': 'application/geo+json' })
          .end(JSON.stringify({ type: 'FeatureCollection', features: [CONDUCTORS.features[1]], links: [] }));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('follows the supplied address (relative to the API) and keeps every vertex height', async () => {
    const c = await fetchSuppliedFeatures(`${base}/api/assets/custom-tiler/file-supplier-url?id=7&extension=geojson`);
    expect(c.features).toHaveLength(2);
    expect(c.features[0]!.geometry!.coordinates).toEqual([
      [-112.18782, 35.24797, 7.152],
      [-112.18781, 35.24798, 6.941],
    ]);
    expect(seen).toContain('/files/power-lines.geojson?sig=abc');
  });

  it('says which address failed, and refuses an answer that is no FeatureCollection', async () => {
    await expect(
      fetchSuppliedFeatures(`${base}/api/assets/custom-tiler/file-supplier-url?id=missing&extension=geojson`),
    ).rejects.toThrow('HTTP 404');
    await expect(
      fetchSuppliedFeatures(`${base}/api/assets/custom-tiler/file-supplier-url?id=broken&extension=geojson`),
    ).rejects.toThrow('not a GeoJSON FeatureCollection');
  });

  it('reads the file when the layer names one, else its OGC items', async () => {
    const fromFile = await fetchLayerFeatures({
      url: `${base}/ogc/collections/7/items`,
      fileUrl: `${base}/api/assets/custom-tiler/file-supplier-url?id=7&extension=geojson`,
    });
    expect(fromFile.features).toHaveLength(2);
    const fromItems = await fetchLayerFeatures({ url: `${base}/ogc/collections/7/items` });
    expect(fromItems.features).toHaveLength(1);
  });
});

describe('featureColor', () => {
  const risk = {
    color: '#999999',
    colorBy: { property: 'severity', colors: { high: '#e5383b', medium: '#f48c06', low: '#ffd60a' } },
  };
  it('colours a feature by its property value, as text', () => {
    expect(featureColor(risk, { severity: 'high' })).toBe('#e5383b');
    expect(featureColor(risk, { severity: 'low' })).toBe('#ffd60a');
    const zones = { color: '#000000', colorBy: { property: 'zone', colors: { '1': '#111111', true: '#222222' } } };
    expect(featureColor(zones, { zone: 1 })).toBe('#111111');
    expect(featureColor({ ...zones, colorBy: { property: 'r', colors: { true: '#222222' } } }, { r: true })).toBe(
      '#222222',
    );
  });
  it('falls back on the style colour for unknown, missing or null values, and without colorBy', () => {
    expect(featureColor(risk, { severity: 'extreme' })).toBe('#999999');
    expect(featureColor(risk, { severity: null })).toBe('#999999');
    expect(featureColor(risk, null)).toBe('#999999');
    expect(featureColor({ color: '#00e5ff' }, { severity: 'high' })).toBe('#00e5ff');
  });
});
