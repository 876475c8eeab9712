import path from 'node:path';
import { buildContours, type ContourLine, contourFeatures } from '@nuage/engine/products/contours.product.js';
import type { ProcessingProduct, ProductContext, ProductOutput } from './product.js';
import { type DtmValue, featuresToWgs84, inputOf, writeWgs84GeoJson } from './terrain-values.js';

/** What the contour product hands to the major and minor ones. */
interface ContourValue {
  lines: ContourLine[];
  dtm: DtmValue;
}

async function contourOutput(
  ctx: ProductContext,
  lines: ContourLine[],
  dtm: DtmValue,
  suffix: string,
): Promise<ProductOutput> {
  const file = path.join(ctx.workDir, `contours${suffix}.geojson`);
  const written = await writeWgs84GeoJson(file, contourFeatures(lines), dtm.crs);
  return {
    files: [{ path: file, extension: 'geojson', fileName: `${ctx.sourceName}-contours${suffix}.geojson` }],
    features: featuresToWgs84(contourFeatures(lines), dtm.crs),
    figures: { lines: written.features },
  };
}

/** CONTOUR_LINE: minor and major contours (elevation, kind), smoothed; GeoJSON in EPSG:4326, features in PostGIS. */
export const contoursProduct: ProcessingProduct = {
  id: 'contours',
  assetType: 'CONTOUR_LINE',
  name: 'Contour lines',
  needs: ['dtm'],
  enabled: (o) => o.contours,
  async run(ctx) {
    const dtm = inputOf<DtmValue>(ctx.inputs, 'dtm');
    const lines = buildContours(
      dtm.dtm,
      {
        minorCm: ctx.options.contourMinorInterval,
        majorCm: ctx.options.contourMajorInterval,
        verticalUnitToMetre: dtm.units.verticalUnitToMetre,
      },
      { signal: ctx.signal },
    );
    const value: ContourValue = { lines, dtm };
    return { ...(await contourOutput(ctx, lines, dtm, '')), value };
  },
};

/** CONTOUR_LINE_MAJOR: the major contours only. */
export const majorContoursProduct: ProcessingProduct = {
  id: 'contours-major',
  assetType: 'CONTOUR_LINE_MAJOR',
  name: 'Major contour lines',
  needs: ['contours'],
  enabled: (o) => o.contours,
  async run(ctx) {
    const { lines, dtm } = inputOf<ContourValue>(ctx.inputs, 'contours');
    return contourOutput(
      ctx,
      lines.filter((l) => l.kind === 'major'),
      dtm,
      '-major',
    );
  },
};

/** CONTOUR_LINE_MINOR: the minor contours only (never repeating a major one). */
export const minorContoursProduct: ProcessingProduct = {
  id: 'contours-minor',
  assetType: 'CONTOUR_LINE_MINOR',
  name: 'Minor contour lines',
  needs: ['contours'],
  enabled: (o) => o.contours,
  async run(ctx) {
    const { lines, dtm } = inputOf<ContourValue>(ctx.inputs, 'contours');
    return contourOutput(
      ctx,
      lines.filter((l) => l.kind === 'minor'),
      dtm,
      '-minor',
    );
  },
};
