import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineProduct } from '../core/product.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import { featuresToWgs84 } from './product-values.js';
import { inventoryCsv, type TreeCrownsValue } from './tree-crowns.product.js';

/**
 * FOREST_INVENTORY: the tree list as CSV (UTF-8, `tree_id,x,y,height_m,crown_area_m2`,
 * project CRS, heights to 2 decimals, areas to 1), same ids as the tree vectors;
 * its rows also go to PostGIS as points so GIS tools read them.
 */
export const forestInventoryProduct = defineProduct({
  ...productEntry('forest-inventory'),
  async run(ctx) {
    const { crowns, tops } = ctx.need<TreeCrownsValue>('tree-crowns');
    const file = path.join(ctx.workDir, 'forest-inventory.csv');
    await writeFile(file, inventoryCsv(crowns, tops.tops), 'utf8');
    const byId = new Map(tops.tops.map((t) => [t.treeId, t]));
    function* rows(): Generator<Feature> {
      for (const c of crowns) {
        const t = byId.get(c.treeId)!;
        yield {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [t.x, t.y] },
          properties: {
            tree_id: c.treeId,
            x: Math.round(t.x * 100) / 100,
            y: Math.round(t.y * 100) / 100,
            height_m: Math.round(c.height * 100) / 100,
            crown_area_m2: Math.round(c.crownArea * 10) / 10,
          },
        };
      }
    }
    return {
      files: [{ path: file, format: 'CSV', extension: 'csv', epsg: tops.chm.crs.epsg, count: crowns.length }],
      features: () => featuresToWgs84(rows(), tops.chm.crs),
      figures: { trees: crowns.length },
    };
  },
});
