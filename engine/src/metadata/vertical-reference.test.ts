import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { extractMetadata } from './index.js';

describe.skipIf(!hasRealData())('metadata: the vertical reference of the heights', () => {
  it('names CGVD28 for bcts_1.laz and the EGM96 undulation at its centre', async () => {
    const m = await extractMetadata(realFile('bcts_1.laz'));
    expect(m.verticalReference).toEqual({
      heights: 'orthometric',
      name: 'CGVD28 height',
      epsg: 5713,
      source: 'crs',
      geoidModel: 'EGM96',
      // PROJ egm96_15 gives −15.52 m at a ground point of the tile (crs/geoid.test.ts).
      undulationMetres: expect.closeTo(-15.52, 1),
    });
  });

  it('names NAP when the project gives the compound EPSG code of the AHN files', async () => {
    const m = await extractMetadata(realFile('ahn3_cropped_1.laz'), { epsg: 7415 });
    expect(m.verticalReference).toMatchObject({
      heights: 'orthometric',
      name: 'NAP height',
      epsg: 5709,
      source: 'crs',
    });
    expect(m.verticalReference?.undulationMetres).toBeCloseTo(43.46, 1);
  });
});
