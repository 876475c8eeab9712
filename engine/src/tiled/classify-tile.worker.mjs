// Worker thread of a tiled classification (see classifyTileInThread in
// tiled-classify.ts): one tile at a time, read from and written to files, so
// that two tiles run side by side on two cores.
import { importCompiled } from '../core/worker-bundle.mjs';

const {
  modules: [{ runClassifyTile }],
} = await importCompiled(import.meta.url, ['./classify-tile.task.ts']);

export default runClassifyTile;
