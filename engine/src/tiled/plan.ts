/**
 * Tiled processing (issue 24, goal 2): a project too big for one machine is
 * cut into a grid of tiles in plan. Each tile is classified on its own (by any
 * worker) with an overlap buffer around it, so ground, buildings and wires are
 * not cut at the seams; each point takes the classes of the one tile that owns
 * it (the grid cell it falls in), so the merged result does not depend on which
 * worker ran which tile, nor on how many there were.
 */
import { InvalidInput } from '../core/errors.js';

/** Points per tile of a tiled run when none is given. */
export const DEFAULT_TILE_POINTS = 8_000_000;

/**
 * Clouds with at least this many points are classified in tiles by default
 * (`nuage process`, and the API's `TILED_PROCESSING_POINTS`): at 38 M points
 * (1 GB of LAS) two tiles at a time in threads took the whole cloud's time
 * (83 against 84 s) with half its peak memory (1.66 against 3.62 GB).
 */
export const DEFAULT_TILED_FROM_POINTS = 30_000_000;

/**
 * Points per tile for a cloud of `points` points: the size asked (0: never
 * tiled), else {@link DEFAULT_TILE_POINTS} from {@link DEFAULT_TILED_FROM_POINTS}
 * points up; undefined when the cloud is classified in one piece.
 *
 * @example
 * tilePointsFor(38e6, undefined); // 8e6
 */
export function tilePointsFor(points: number, asked: number | undefined): number | undefined {
  if (asked !== undefined) return asked > 0 ? asked : undefined;
  return points >= DEFAULT_TILED_FROM_POINTS ? DEFAULT_TILE_POINTS : undefined;
}

/** The grid of a tiled run, in the cloud's CRS units. */
export interface TileGrid {
  minX: number;
  minY: number;
  /** Tile size along x and y. */
  width: number;
  height: number;
  nx: number;
  ny: number;
  /** Overlap around each tile's own area (CRS units). */
  buffer: number;
}

/** One tile: its index in the grid and the area it owns. */
export interface TileSpec {
  index: number;
  ix: number;
  iy: number;
  /** The area the tile owns (its points' classes are kept). */
  core: { minX: number; minY: number; maxX: number; maxY: number };
}

/** Options of {@link planTiles}. */
export interface PlanOptions {
  /** Points a tile should hold at most, about (default 8 M). */
  pointsPerTile?: number;
  /** Overlap buffer in metres (default 40: wider than the ground filter's largest window and most buildings). */
  bufferMetres?: number;
  /** CRS horizontal unit in metres (1 for metric CRSs). */
  unitToMetre?: number;
}

/**
 * The grid for a cloud of `pointCount` points in `bounds`: about
 * `pointCount / pointsPerTile` tiles, as square as the extent allows.
 *
 * @example
 * const grid = planTiles({ minX: 0, minY: 0, maxX: 1000, maxY: 500 }, 20e6, { pointsPerTile: 5e6 });
 */
export function planTiles(
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  pointCount: number,
  options: PlanOptions = {},
): TileGrid {
  const { minX, minY, maxX, maxY } = bounds;
  if (![minX, minY, maxX, maxY].every(Number.isFinite) || maxX < minX || maxY < minY) {
    throw new InvalidInput('bounds', 'the cloud has no valid extent to cut into tiles');
  }
  const perTile = Math.max(1, options.pointsPerTile ?? DEFAULT_TILE_POINTS);
  const unit = options.unitToMetre ?? 1;
  const buffer = (options.bufferMetres ?? 40) / unit;
  const wanted = Math.max(1, Math.ceil(pointCount / perTile));
  const spanX = Math.max(maxX - minX, 1e-6);
  const spanY = Math.max(maxY - minY, 1e-6);
  // nx / ny close to the extent's aspect, nx * ny >= wanted.
  let nx = Math.max(1, Math.round(Math.sqrt((wanted * spanX) / spanY)));
  let ny = Math.max(1, Math.ceil(wanted / nx));
  if (nx * ny < wanted) nx = Math.ceil(wanted / ny);
  // A tile narrower than twice its buffer would classify mostly borrowed points: fewer, larger tiles.
  while (nx > 1 && spanX / nx < 2 * buffer) nx--;
  while (ny > 1 && spanY / ny < 2 * buffer) ny--;
  return { minX, minY, width: spanX / nx, height: spanY / ny, nx, ny, buffer };
}

/** Tiles of a grid, row by row. */
export function tilesOf(grid: TileGrid): TileSpec[] {
  const out: TileSpec[] = [];
  for (let iy = 0; iy < grid.ny; iy++) {
    for (let ix = 0; ix < grid.nx; ix++) {
      out.push({
        index: iy * grid.nx + ix,
        ix,
        iy,
        core: {
          minX: grid.minX + ix * grid.width,
          minY: grid.minY + iy * grid.height,
          maxX: grid.minX + (ix + 1) * grid.width,
          maxY: grid.minY + (iy + 1) * grid.height,
        },
      });
    }
  }
  return out;
}

/** The grid cell of a coordinate along one axis (off the grid: the nearest edge cell). */
function cellOf(v: number, min: number, size: number, n: number): number {
  const i = Math.floor((v - min) / size);
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/** The tile owning a point (points off the grid go to the nearest edge tile). */
export function ownerOf(grid: TileGrid, x: number, y: number): number {
  return cellOf(y, grid.minY, grid.height, grid.ny) * grid.nx + cellOf(x, grid.minX, grid.width, grid.nx);
}

/**
 * The columns and rows of the tiles whose buffered area holds the point, into
 * `out` as `[x0, x1, y0, y1]` (inclusive): the point's owner and up to 8
 * neighbours (tile index `iy * nx + ix`).
 */
export function tileRange(grid: TileGrid, x: number, y: number, out: Int32Array): Int32Array {
  const b = grid.buffer;
  out[0] = cellOf(x - b, grid.minX, grid.width, grid.nx);
  out[1] = cellOf(x + b, grid.minX, grid.width, grid.nx);
  out[2] = cellOf(y - b, grid.minY, grid.height, grid.ny);
  out[3] = cellOf(y + b, grid.minY, grid.height, grid.ny);
  return out;
}
