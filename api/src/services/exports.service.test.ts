import { CrsRequired, InvalidInput } from '@nuage/engine/core/errors.js';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../errors.codes.js';
import { AppError } from '../errors.js';
import {
  EXPORT_FORMAT_NAMES,
  exportError,
  exportFileExtension,
  exportFileName,
  isExportFileExtension,
  safeFileNamePart,
  unknownFormat,
} from './exports.service.js';

describe('export file names', () => {
  it('are <project>-<asset type lower>.<extension>, sanitised', () => {
    expect(exportFileName('Fusa', 'TREE_TOPS', 'geojson')).toBe('Fusa-tree_tops.geojson');
    expect(exportFileName('Forêt de Fusa : 2024', 'CONTOUR_LINE_MAJOR', 'dxf')).toBe(
      'Foret-de-Fusa-2024-contour_line_major.dxf',
    );
    expect(exportFileName('Ligne "HT" été\\2025', 'BUILDINGS', 'shp')).toBe('Ligne-HT-ete-2025-buildings.zip');
    expect(exportFileName('..', 'GRID', 'shp')).toBe('project-grid.zip');
    expect(exportFileName('北京', 'GRID', 'geojson')).toBe('project-grid.geojson');
  });

  it('keep a safe part short and never starting or ending with a dot or a dash', () => {
    expect(safeFileNamePart(`.${'a'.repeat(200)}.`, 'x')).toHaveLength(80);
    expect(safeFileNamePart('-.hidden-', 'x')).toBe('hidden');
    expect(safeFileNamePart('a   b', 'x')).toBe('a-b');
  });
});

describe('cached export rows', () => {
  it('use an asset_files extension of their own per format (the product keeps its geojson)', () => {
    expect(EXPORT_FORMAT_NAMES).toEqual(['geojson', 'dxf', 'shp']);
    const extensions = EXPORT_FORMAT_NAMES.map(exportFileExtension);
    expect(extensions).toEqual(['expgeojson', 'expdxf', 'expshp']);
    for (const e of extensions) expect(e).toMatch(/^[a-z0-9]{1,10}$/); // the asset_files CHECK
    expect(isExportFileExtension('expdxf')).toBe(true);
    expect(isExportFileExtension('geojson')).toBe(false);
  });
});

describe('export errors', () => {
  it('names the parameter of an unknown format', () => {
    const e = unknownFormat('kml');
    expect([e.status, e.code, e.details]).toEqual([
      400,
      'EXPORT_FORMAT_UNKNOWN',
      { parameter: 'format', allowed: ['geojson', 'dxf', 'shp'] },
    ]);
    expect(e.message).toBe('format: "kml" is not an export format (geojson, dxf, shp)');
  });

  it("turns the writers' errors into stable codes, keeping the engine's message", () => {
    const tooLarge = exportError(
      new InvalidInput('shapefile', 'layer too large for a Shapefile (over 2 GB): export GeoJSON or DXF'),
      'shp',
    ) as AppError;
    expect([tooLarge.status, tooLarge.code, tooLarge.message]).toEqual([
      413,
      'EXPORT_TOO_LARGE',
      'shapefile: layer too large for a Shapefile (over 2 GB): export GeoJSON or DXF',
    ]);
    const mixed = exportError(
      new InvalidInput('shapefile', 'a Shapefile holds one geometry type: got Point and Polygon'),
      'shp',
    ) as AppError;
    expect([mixed.status, mixed.code]).toEqual([422, 'EXPORT_NOT_POSSIBLE']);
    const crs = exportError(new CrsRequired(), 'dxf') as AppError;
    expect([crs.status, crs.code]).toEqual([409, 'CRS_REQUIRED']);
    const other = new Error('disk full');
    expect(exportError(other, 'dxf')).toBe(other);
    for (const e of [tooLarge, mixed, crs]) {
      expect(e).toBeInstanceOf(AppError);
      expect(ERROR_CODES[e.code as keyof typeof ERROR_CODES]?.status).toBe(e.status);
    }
  });
});
