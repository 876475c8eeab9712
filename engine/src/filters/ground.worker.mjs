// Worker thread of the tiled ground filter (see ground-tiled.ts): loads the
// TypeScript filters as plain JavaScript (core/worker-bundle.mjs, tsx when no
// bundle can be built), then serves tiles.
import { importCompiled } from '../core/worker-bundle.mjs';

const {
  modules: [{ runGroundTile }],
} = await importCompiled(import.meta.url, ['./ground-tile.task.ts']);

export default runGroundTile;
