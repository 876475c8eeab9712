/**
 * One stage of a tiled classification in its own process, as a worker process
 * of the API runs it (tiled.bench.ts times each under /usr/bin/time):
 *
 *   tsx bench/src/tiled-stage.ts split IN DIR POINTS_PER_TILE BUFFER_M   → DIR/split.json, DIR/tiles/tile-<i>.bin
 *   tsx bench/src/tiled-stage.ts tiles DIR I,J,K                         → DIR/classes-<i>.bin, a JSON line per tile
 *   tsx bench/src/tiled-stage.ts merge DIR                               → DIR/classes.bin
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  classifyTile,
  mergeTileClasses,
  splitIntoTiles,
  type TileSplit,
  writeClassesFile,
} from '@nuage/engine/tiled/tiled-classify.js';

async function main(): Promise<void> {
  const [stage, ...args] = process.argv.slice(2);
  if (stage === 'split') {
    const [input, dir, perTile, buffer] = args as [string, string, string, string];
    const split = await splitIntoTiles(input, path.join(dir, 'tiles'), {
      pointsPerTile: Number(perTile),
      bufferMetres: Number(buffer),
    });
    await writeFile(path.join(dir, 'split.json'), JSON.stringify(split));
  } else if (stage === 'tiles') {
    // One worker process running its tiles one after another (as an API worker does): a line per tile.
    const [dir, list] = args as [string, string];
    const split = JSON.parse(await readFile(path.join(dir, 'split.json'), 'utf8')) as TileSplit;
    for (const index of list.split(',').map(Number)) {
      const t = split.tiles[index]!;
      const t0 = performance.now();
      const r = await classifyTile(
        t.file,
        split.grid,
        t.index,
        split.settings,
        path.join(dir, `classes-${t.index}.bin`),
      );
      const cpu = process.cpuUsage();
      process.stdout.write(
        `${JSON.stringify({ tile: index, points: r.points, owned: r.owned, seconds: Math.round(performance.now() - t0) / 1000, processCpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`,
      );
    }
  } else if (stage === 'merge') {
    const [dir] = args as [string];
    const split = JSON.parse(await readFile(path.join(dir, 'split.json'), 'utf8')) as TileSplit;
    const classes = await mergeTileClasses(
      split.tiles.map((t) => path.join(dir, `classes-${t.index}.bin`)),
      split.pointCount,
    );
    await writeClassesFile(path.join(dir, 'classes.bin'), classes);
  } else {
    throw new Error(`unknown stage ${stage}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
