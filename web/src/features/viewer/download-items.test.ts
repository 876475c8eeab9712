import { describe, expect, it } from 'vitest';
import type { Asset, AssetFile, Layer, LayerType, Project } from '../projects/projects.types.js';
import { downloadItems, mayDownloadPremium } from './download-items.js';

let nextId = 1;

function asset(type: string, display: Asset['display'], files: AssetFile[], status: Asset['status'] = 'READY'): Asset {
  return {
    id: String(nextId++),
    layerId: '0',
    type,
    display,
    status,
    name: type.toLowerCase(),
    storage: 'CUSTOM_TILING',
    tilingType: null,
    accessUrl: null,
    files,
    originalFilename: null,
    epsgCode: 32754,
    errorCode: null,
    errorMessage: null,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

const file = (extension: string, size = 10): AssetFile => ({ extension, fileName: `f.${extension}`, size });
const layer = (type: LayerType, assets: Asset[]): Layer => ({ id: type, name: type, type, assets });

describe('downloadItems', () => {
  it('offers vectors as GeoJSON, DXF and Shapefile exports, the other assets as their files', () => {
    const contours = asset('CONTOUR_LINE', 'vector', [file('geojson', 100), file('expdxf', 42)]);
    const noGeojson = asset('BUILDINGS', 'vector', []);
    const failed = asset('TREE_TOPS', 'vector', [file('geojson')], 'ERROR');
    const topo = asset('TOPOGRAPHIC_MAP', 'download', [file('dxf', 7)]);
    const dtm = asset('DTM', 'download', [file('tif', 5)]);
    const classified = asset('CLASSIFIED_POINT_CLOUD', 'pointCloud', [file('las', 9)]);
    const cloud = asset('POINT_CLOUD', 'pointCloud', [file('laz', 8)]);
    const pdf = asset('PDF_REPORT', 'download', [file('pdf')]);
    const csv = asset('FOREST_INVENTORY', 'download', [file('csv')]);
    const quality = asset('QUALITY_REPORT', 'download', [file('json')]);
    const project = {
      layers: [
        layer('POINT_CLOUD', [cloud, classified]),
        layer('RASTER', [dtm]),
        layer('VECTOR', [contours, noGeojson, failed, topo]),
        layer('REPORT', [csv, quality, pdf]),
      ],
    } satisfies Pick<Project, 'layers'>;
    const rows = downloadItems(project).map((i) => [
      i.layerType,
      i.asset.type,
      i.actions.map((a) => `${a.label}:${a.source.kind}:${a.size ?? '-'}${a.premium ? ':premium' : ''}`),
    ]);
    expect(rows).toEqual([
      ['POINT_CLOUD', 'POINT_CLOUD', ['LAZ:file:8']],
      ['POINT_CLOUD', 'CLASSIFIED_POINT_CLOUD', ['LAS:file:9:premium']],
      ['RASTER', 'DTM', ['GeoTIFF:file:5']],
      ['VECTOR', 'CONTOUR_LINE', ['GeoJSON:export:-', 'DXF:export:-', 'Shapefile:export:-']],
      ['VECTOR', 'TOPOGRAPHIC_MAP', ['DXF:file:7']],
      ['REPORT', 'FOREST_INVENTORY', ['CSV:file:10']],
      ['REPORT', 'QUALITY_REPORT', ['JSON:file:10']],
      ['REPORT', 'PDF_REPORT', ['PDF:file:10']],
    ]);
    const exports = downloadItems(project).find((i) => i.asset.type === 'CONTOUR_LINE')!.actions;
    expect(exports.map((a) => a.source)).toEqual([
      { kind: 'export', format: 'geojson' },
      { kind: 'export', format: 'dxf' },
      { kind: 'export', format: 'shp' },
    ]);
  });

  it('lets premium users and admins download premium data, never through a share link', () => {
    expect(mayDownloadPremium({ premium: true, roles: ['user'] }, undefined)).toBe(true);
    expect(mayDownloadPremium({ premium: false, roles: ['admin', 'user'] }, undefined)).toBe(true);
    expect(mayDownloadPremium({ premium: false, roles: ['user'] }, undefined)).toBe(false);
    expect(mayDownloadPremium({ premium: true, roles: ['user'] }, 'token')).toBe(false);
    expect(mayDownloadPremium(null, undefined)).toBe(false);
  });
});
