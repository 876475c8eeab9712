import { describe, expect, it } from 'vitest';
import type { Asset, AssetType, Layer, LayerType, Project } from '../projects/projects.types.js';
import { currentJob, isInProgress } from '../projects/projects.types.js';
import {
  DEFAULT_VECTOR_COLOR,
  defaultTicked,
  downloadChoices,
  failureOf,
  isDrawable,
  isListed,
  isTickable,
  POWER_LINE_COLOR,
  RISK_COLORS,
  sceneLayers,
  VECTOR_STYLES,
  vectorColor,
  vectorFileUrl,
  vectorItemsUrl,
  vectorStyle,
  vectorTilesUrl,
  viewerProblem,
} from './viewer-scene.js';

/** How the product registry shows the types these tests use (GET /processing/products). */
const DISPLAY: Record<string, Asset['display']> = {
  POINT_CLOUD: 'pointCloud',
  CLASSIFIED_POINT_CLOUD: 'pointCloud',
  DTM: 'download',
  HILLSHADE_DTM: 'raster',
  SLOPE_MAP: 'raster',
  CONTOUR_LINE: 'vector',
  BUILDINGS: 'vector',
  TREE_TOPS: 'vector',
  PDF_REPORT: 'download',
  QUALITY_REPORT: 'download',
};

let nextId = 1;
function asset(type: AssetType, patch: Partial<Asset> = {}): Asset {
  const id = String(nextId++);
  return {
    id,
    layerId: '0',
    type,
    display: DISPLAY[type] ?? 'vector',
    status: 'READY',
    name: type.toLowerCase(),
    storage: 'CUSTOM_TILING',
    tilingType: 'PY3DTILES',
    accessUrl: `/tiles/s/sig/9/projects/1/assets/${id}/tileset.json`,
    files: [],
    originalFilename: null,
    epsgCode: 2154,
    errorCode: null,
    errorMessage: null,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...patch,
  };
}

function layer(type: LayerType, assets: Asset[]): Layer {
  const id = `L${type}`;
  return { id, name: type, type, assets: assets.map((a) => ({ ...a, layerId: id })) };
}

function project(layers: Layer[], patch: Partial<Project> = {}): Project {
  return {
    id: '1',
    name: 'Autzen',
    status: 'READY',
    lasName: 'autzen_trim.las',
    area: 3.38,
    systemId: 'PDAL',
    generatingSoftware: 'PDAL',
    creationDay: 253,
    creationYear: 2015,
    lidarPointCount: 110000,
    maxElevation: 520.51,
    minElevation: 406.26,
    pointCloudMemory: 0.0037,
    lasVersion: '1.2',
    epsgCode: 2994,
    creatorEmail: 'a@example.com',
    creationDate: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    errorCode: null,
    errorMessage: null,
    layers,
    ...patch,
  };
}

describe('viewerProblem (spec §8 viewer errors, in order)', () => {
  it('accepts a READY project with a tiled point cloud', () => {
    expect(viewerProblem(project([layer('POINT_CLOUD', [asset('POINT_CLOUD')])]))).toBeNull();
  });

  it('reports each problem', () => {
    const pc = (patch: Partial<Asset>) => project([layer('POINT_CLOUD', [asset('POINT_CLOUD', patch)])]);
    expect(viewerProblem(project([], { status: 'PROCESSING' }))).toEqual({
      code: 'PROJECT_NOT_READY',
      status: 'PROCESSING',
    });
    expect(viewerProblem(project([layer('RASTER', [asset('DTM')])]))).toEqual({ code: 'NO_LAS_LAYER' });
    expect(viewerProblem(pc({ status: 'TILING' }))).toEqual({ code: 'NO_WORKING_ASSET' });
    expect(viewerProblem(pc({ storage: 'CESIUM_ION' }))).toEqual({ code: 'STORAGE_NOT_SUPPORTED' });
    expect(viewerProblem(pc({ storage: 'CESIUM_ION', id: '' }))).toEqual({ code: 'ASSET_INVALID_ID' });
    expect(viewerProblem(pc({ storage: 'FTP' }))).toEqual({ code: 'UNKNOWN_STORAGE_MODE' });
    expect(viewerProblem(pc({ tilingType: null }))).toEqual({ code: 'TILING_TYPE_UNDEFINED' });
    expect(viewerProblem(pc({ tilingType: 'POTREE' }))).toEqual({ code: 'LAS_NOT_SUPPORTED' });
    expect(viewerProblem(pc({ accessUrl: null }))).toEqual({ code: 'ASSET_INVALID_ACCESS_URL' });
    expect(viewerProblem(pc({ accessUrl: 'javascript:alert(1)' }))).toEqual({ code: 'ASSET_INVALID_ACCESS_URL' });
  });
});

describe('layer tree rules (spec §4)', () => {
  it('lists READY, TILING and failed assets; only READY ones with something to draw can be ticked', () => {
    const tiling = asset('CLASSIFIED_POINT_CLOUD', { status: 'TILING', accessUrl: null });
    const errored = asset('DTM', { status: 'ERROR' });
    const processing = asset('SLOPE_MAP', { status: 'PROCESSING' });
    expect([isListed(asset('POINT_CLOUD')), isListed(tiling), isListed(errored), isListed(processing)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect([isTickable(asset('POINT_CLOUD')), isTickable(tiling), isTickable(errored)]).toEqual([true, false, false]);
    expect(isDrawable(asset('SLOPE_MAP', { accessUrl: null }))).toBe(false);
    expect(isDrawable(asset('HILLSHADE_DTM', { accessUrl: '/t/{z}/{x}/{y}.png' }))).toBe(true);
    expect(isDrawable(asset('CONTOUR_LINE', { accessUrl: null }))).toBe(true);
    expect(isDrawable(asset('PDF_REPORT'))).toBe(false);
  });

  it("decides what it draws by the registry's display, not by the asset type", () => {
    // The DTM is a download (its hillshade and imagery are drawn), even with an access URL.
    expect(isDrawable(asset('DTM', { accessUrl: '/t/{z}/{x}/{y}.png' }))).toBe(false);
    expect(isDrawable(asset('QUALITY_REPORT'))).toBe(false);
    // A type this build does not know is drawn as the registry says.
    expect(isDrawable(asset('CANOPY_HEIGHT', { display: 'raster', accessUrl: '/c/{z}/{x}/{y}.png' }))).toBe(true);
    expect(isDrawable(asset('WIRES', { display: 'vector', accessUrl: null }))).toBe(true);
    // A display this build does not know is not drawn.
    expect(isDrawable(asset('HOLOGRAM', { display: 'hologram' as never }))).toBe(false);
  });

  it('ticks the first READY point cloud when the project opens', () => {
    const original = asset('POINT_CLOUD');
    const p = project([layer('POINT_CLOUD', [original, asset('CLASSIFIED_POINT_CLOUD')])]);
    expect([...defaultTicked(p)]).toEqual([original.id]);
    expect([...defaultTicked(project([layer('POINT_CLOUD', [asset('POINT_CLOUD', { status: 'TILING' })])]))]).toEqual(
      [],
    );
  });
});

describe('sceneLayers', () => {
  it('describes clouds always, rasters and vectors once ticked, in layer order', () => {
    const cloud = asset('POINT_CLOUD');
    const classified = asset('CLASSIFIED_POINT_CLOUD');
    const hillshade = asset('HILLSHADE_DTM', { accessUrl: '/tiles/s/x/1/h/{z}/{x}/{y}.png' });
    const contours = asset('CONTOUR_LINE', { accessUrl: null });
    const tiling = asset('SLOPE_MAP', { status: 'TILING' });
    const p = project([
      layer('POINT_CLOUD', [cloud, classified]),
      layer('RASTER', [hillshade, tiling]),
      layer('VECTOR', [contours]),
    ]);
    const none = sceneLayers(p, new Set([cloud.id]));
    expect(none.map((l) => [l.kind, l.id, l.visible])).toEqual([
      ['pointCloud', cloud.id, true],
      ['pointCloud', classified.id, false],
    ]);
    const all = sceneLayers(p, new Set([cloud.id, hillshade.id, contours.id, tiling.id]), '/api', 'tok en');
    expect(all.map((l) => l.kind)).toEqual(['pointCloud', 'pointCloud', 'raster', 'vector']);
    const vector = all.find((l) => l.kind === 'vector')!;
    expect(vector.kind === 'vector' && vector.url).toBe(
      `/ogc/collections/${contours.id}/items?limit=10000&token=tok+en`,
    );
    // The 2D map draws it from its vector tiles: the TileJSON of OGC API Tiles, with the share token.
    expect(vector.kind === 'vector' && vector.tilesUrl).toBe(
      `/ogc/collections/${contours.id}/tiles/WebMercatorQuad?token=tok+en`,
    );
  });

  it('draws by display: unknown types as the registry says, downloads never, unknown vectors in the default colour', () => {
    const dtm = asset('DTM', { accessUrl: '/tiles/s/x/1/d/{z}/{x}/{y}.png' });
    const canopy = asset('CANOPY_HEIGHT', { display: 'raster', accessUrl: '/tiles/s/x/1/c/{z}/{x}/{y}.png' });
    const wires = asset('WIRES', { display: 'vector', accessUrl: null });
    const contours = asset('CONTOUR_LINE', { accessUrl: null });
    const quality = asset('QUALITY_REPORT', { accessUrl: null });
    const lidar = asset('LIDAR_STRIPS', { display: 'pointCloud' });
    const p = project([
      layer('POINT_CLOUD', [lidar]),
      layer('RASTER', [dtm, canopy]),
      layer('VECTOR', [contours, wires]),
      layer('REPORT', [quality]),
    ]);
    const all = sceneLayers(p, new Set([lidar.id, dtm.id, canopy.id, contours.id, wires.id, quality.id]));
    expect(all.map((l) => [l.kind, l.id])).toEqual([
      ['pointCloud', lidar.id],
      ['raster', canopy.id],
      ['vector', contours.id],
      ['vector', wires.id],
    ]);
    const styles = all.flatMap((l) => (l.kind === 'vector' ? [l.style] : []));
    expect(styles).toEqual([
      { kind: 'lines', color: '#c98b4a' },
      { kind: 'lines', color: DEFAULT_VECTOR_COLOR },
    ]);
  });

  it('builds OGC items and tileset URLs next to the API', () => {
    expect(vectorItemsUrl('https://nuage.example/api/', '7')).toBe(
      'https://nuage.example/ogc/collections/7/items?limit=10000',
    );
    expect(vectorTilesUrl('https://nuage.example/api/', 'a b')).toBe(
      'https://nuage.example/ogc/collections/a%20b/tiles/WebMercatorQuad',
    );
  });
});

describe('failureOf (failed products in the layer tree)', () => {
  it('gives the translation key of the error code and the message to fall back on', () => {
    expect(
      failureOf(asset('TREE_CROWNS', { status: 'ERROR', errorCode: 'DEPENDENCY_FAILED', errorMessage: 'x' })),
    ).toEqual({ key: 'errors:DEPENDENCY_FAILED', message: 'x' });
    expect(failureOf(asset('CHM', { status: 'ERROR', errorCode: null, errorMessage: 'disk full' }))).toEqual({
      key: null,
      message: 'disk full',
    });
    expect(failureOf(asset('CHM', { status: 'ERROR', errorCode: '', errorMessage: '' }))).toEqual({
      key: null,
      message: null,
    });
    expect(failureOf(asset('CHM'))).toBeNull();
  });
});

describe('power-line layers', () => {
  it('draws conductors in their own colour from the 3D file, towers as poles of their height', () => {
    const row = VECTOR_STYLES.POWER_LINE!;
    expect(row).toMatchObject({ kind: 'lines', color: POWER_LINE_COLOR, pole: { height: 'height' }, fromFile: true });
    const others = Object.entries(VECTOR_STYLES).filter(([type]) => type !== 'POWER_LINE');
    for (const [type, other] of others) expect(other!.color, type).not.toBe(POWER_LINE_COLOR);
  });

  it('colours vegetation risk by severity (red, orange, yellow) as volumes up to their highest return', () => {
    const risk = VECTOR_STYLES.VEGETATION_RISK!;
    expect(risk.colorBy).toEqual({ property: 'severity', colors: RISK_COLORS });
    expect(RISK_COLORS).toEqual({ high: '#e5383b', medium: '#f48c06', low: '#ffd60a' });
    expect(risk).toMatchObject({ kind: 'blocks', extrusion: { height: ['maxHeight'] } });
    expect(VECTOR_STYLES.POWER_LINE_BUFFERS).toMatchObject({ kind: 'polygons', colorBy: { property: 'zone' } });
    expect(VECTOR_STYLES.POWER_LINE_BUFFERS!.fillOpacity).toBeLessThan(0.3);
    expect(VECTOR_STYLES.TREE_FALL_RISK).toMatchObject({
      kind: 'points',
      colorBy: { property: 'reachesConductor' },
      fromFile: true,
    });
  });

  it('reads conductors and trees at risk from their GeoJSON file (3D), through the share token when shared', () => {
    const lines = asset('POWER_LINE', { display: 'vector', files: [{ extension: 'geojson', size: 9 } as never] });
    const buffers = asset('POWER_LINE_BUFFERS', {
      display: 'vector',
      files: [{ extension: 'geojson', size: 9 } as never],
    });
    const p = project([layer('VECTOR', [lines, buffers])]);
    const [l, b] = sceneLayers(p, new Set([lines.id, buffers.id]), '/api', 'tok');
    expect(l).toMatchObject({
      kind: 'vector',
      fileUrl: `/api/assets/custom-tiler/file-supplier-url-from-shared-token?id=${lines.id}&extension=geojson&token=tok`,
    });
    expect(l?.kind === 'vector' && l.style).toMatchObject({ kind: 'lines', pole: { height: 'height' } });
    expect(l?.kind === 'vector' && 'fromFile' in l.style).toBe(false);
    // Buffers are plan-view polygons: the OGC items.
    expect(b?.kind === 'vector' && b.fileUrl).toBeUndefined();
    expect(vectorFileUrl('https://x/api/', '7')).toBe(
      'https://x/api/assets/custom-tiler/file-supplier-url?id=7&extension=geojson',
    );
    // Without a GeoJSON file listed, the OGC items (2D) still draw the layer.
    const bare = asset('POWER_LINE', { display: 'vector' });
    const [only] = sceneLayers(project([layer('VECTOR', [bare])]), new Set([bare.id]));
    expect(only?.kind === 'vector' && only.fileUrl).toBeUndefined();
  });
});

describe('vector styles (the legend of vector layers)', () => {
  it('draws tree tops as points labelled with their height in metres to 2 decimals, at their z', () => {
    expect(VECTOR_STYLES.TREE_TOPS).toMatchObject({
      kind: 'points',
      label: { property: 'height', decimals: 2, unit: 'm' },
      elevation: { property: 'z' },
    });
  });

  it('draws crowns as outlined polygons with a light fill, at the z of their tree top', () => {
    const crowns = VECTOR_STYLES.TREE_CROWNS!;
    expect(crowns.kind).toBe('polygons');
    expect(crowns.fillOpacity).toBeGreaterThan(0);
    expect(crowns.fillOpacity).toBeLessThanOrEqual(0.3);
    expect(crowns.elevation).toEqual({ property: 'z', join: { assetType: 'TREE_TOPS', key: 'treeId' } });
  });

  it('extrudes buildings from their ground to their eaves (ridge when the eaves are unknown), translucent', () => {
    const buildings = VECTOR_STYLES.BUILDINGS!;
    expect(buildings.kind).toBe('blocks');
    expect(buildings.extrusion).toEqual({ base: 'groundZ', height: ['eaveHeight', 'ridgeHeight'] });
    expect(buildings.fillOpacity).toBeGreaterThan(0);
    expect(buildings.fillOpacity).toBeLessThan(1);
  });

  it('draws everything else as lines, each type in its legend colour', () => {
    for (const type of ['GRID', 'CONTOUR_LINE', 'CONTOUR_LINE_MAJOR', 'CONTOUR_LINE_MINOR']) {
      expect(VECTOR_STYLES[type]?.kind, type).toBe('lines');
    }
    expect(vectorColor('CONTOUR_LINE_MAJOR')).toBe('#8f5a2a');
    expect(vectorColor('SOMETHING_NEW')).toBe(DEFAULT_VECTOR_COLOR);
    for (const row of Object.values(VECTOR_STYLES)) expect(row!.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("resolves a join to the OGC items of the project's asset of that type, or drops it", () => {
    const tops = asset('TREE_TOPS', { accessUrl: null });
    const withTops = project([layer('VECTOR', [asset('TREE_CROWNS'), tops])]);
    expect(vectorStyle(withTops, 'TREE_CROWNS', '/api', 'tok')).toEqual({
      kind: 'polygons',
      color: '#4cb848',
      fillOpacity: 0.2,
      elevation: {
        property: 'z',
        join: { url: `/ogc/collections/${tops.id}/items?limit=10000&token=tok`, key: 'treeId' },
      },
    });
    const failedTops = project([layer('VECTOR', [asset('TREE_CROWNS'), asset('TREE_TOPS', { status: 'ERROR' })])]);
    expect(vectorStyle(failedTops, 'TREE_CROWNS').elevation).toEqual({ property: 'z' });
    expect(vectorStyle(withTops, 'UNKNOWN_VECTOR')).toEqual({ kind: 'lines', color: DEFAULT_VECTOR_COLOR });
  });
});

describe('downloadChoices', () => {
  it('offers vectors as GeoJSON, DXF and Shapefile when the files exist, and marks the classified cloud premium', () => {
    const contours = asset('CONTOUR_LINE', {
      files: [
        { extension: '.geojson', fileName: 'c.geojson', size: 100 },
        { extension: 'dxf', fileName: 'c.dxf', size: 200 },
        { extension: 'shp', fileName: 'c.shp', size: 300 },
        { extension: 'shx', fileName: 'c.shx', size: 10 },
      ],
    });
    const buildings = asset('BUILDINGS', { files: [{ extension: 'geojson', fileName: 'b.geojson', size: 5 }] });
    const classified = asset('CLASSIFIED_POINT_CLOUD', { files: [{ extension: 'laz', fileName: 'c.laz', size: 9 }] });
    const report = asset('PDF_REPORT', { files: [{ extension: 'pdf', fileName: 'r.pdf', size: 7 }] });
    const notReady = asset('TREE_TOPS', {
      status: 'PROCESSING',
      files: [{ extension: 'geojson', fileName: 't', size: 1 }],
    });
    const p = project([
      layer('POINT_CLOUD', [classified]),
      layer('VECTOR', [contours, buildings, notReady]),
      layer('REPORT', [report]),
    ]);
    expect(downloadChoices(p).map((c) => [c.asset.type, c.format, c.extension, c.premium])).toEqual([
      ['CLASSIFIED_POINT_CLOUD', 'LAZ', 'laz', true],
      ['CONTOUR_LINE', 'GeoJSON', 'geojson', false],
      ['CONTOUR_LINE', 'DXF', 'dxf', false],
      ['CONTOUR_LINE', 'Shapefile', 'shp', false],
      ['BUILDINGS', 'GeoJSON', 'geojson', false],
      ['PDF_REPORT', 'PDF', 'pdf', false],
    ]);
  });
});

describe('project progress', () => {
  const job = (state: string, updatedAt: string, step: string | null = null) =>
    ({ id: '1', state, step, percentage: 40, errorCode: null, errorMessage: null, updatedAt }) as never;

  it('is in progress until READY or ERROR, and while a job runs', () => {
    expect(isInProgress({ status: 'UPLOADED', jobs: {} })).toBe(true);
    expect(isInProgress({ status: 'READY', jobs: {} })).toBe(false);
    expect(isInProgress({ status: 'READY', jobs: { processing: job('PENDING', '2026') } })).toBe(true);
    expect(isInProgress({ status: 'ERROR', jobs: { tiling: job('FAILURE', '2026') } })).toBe(false);
  });

  it('follows the running job, else the latest', () => {
    const jobs = {
      metadata: job('SUCCESS', '2026-01-01T00:00:01Z'),
      tiling: job('PROGRESS', '2026-01-01T00:00:02Z', 'tilesCreation'),
      processing: job('PENDING', '2026-01-01T00:00:03Z'),
    };
    expect(currentJob({ jobs })?.name).toBe('tiling');
    expect(currentJob({ jobs: { ...jobs, tiling: job('SUCCESS', '2026-01-01T00:00:02Z') } })?.name).toBe('processing');
    expect(currentJob({ jobs: {} })).toBeNull();
  });
});
