// Worker thread of the tiled ground filter (see ground-tiled.ts): registers tsx
// so the TypeScript filters run directly, then serves tiles.
import { register } from 'tsx/esm/api';

register();
const { runGroundTile } = await import('./ground-tile.task.ts');

export default runGroundTile;
