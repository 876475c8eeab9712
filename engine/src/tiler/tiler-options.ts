import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { InvalidInput } from '../core/errors.js';

/**
 * Options of the 3D Tiles tiler: the same schema serves the CLI flags, the
 * admin "tiling parameters" text and the job payload.
 */
export const tilerOptionsSchema = z
  .object({
    /** A node holding more points than this is split (its children get the rest). */
    maxPoints: z.number().int().min(1_000).max(2_000_000).default(60_000),
    /** Nodes are not split below this edge length, in metres (0.15 m keeps leaves above point spacing). */
    minNodeSize: z.number().positive().max(10_000).default(0.15),
    /** EPSG code of the input CRS, for files with none (or a wrong one). */
    epsg: z.number().int().min(1024).max(999_999).optional(),
    /** Worker threads building subtrees (default: one per core; 0 builds inline). */
    workers: z.number().int().min(0).max(64).optional(),
    /** Sampling grid cells per node axis; sets point spacing per level (node edge / grid). */
    grid: z.union([z.literal(32), z.literal(64), z.literal(128), z.literal(256)]).default(128),
    /** int16 positions (KHR_mesh_quantization, 8 bytes a point instead of 12); false writes float32. */
    quantize: z.boolean().default(true),
  })
  .strict();

/**
 * Geometric error per unit of point spacing. Tile errors are written as
 * py3dtiles writes them (10 × the node's point spacing), the scale the
 * viewer's screen-space error of 120 (spec §9, "for PY3DTILES tilings") is
 * calibrated for: a tile refines once its spacing spans about 12 pixels.
 */
export const ERROR_PER_SPACING = 10;

/** Validated tiler options. */
export type TilerOptions = z.output<typeof tilerOptionsSchema>;
/** Tiler options as callers give them (every field optional). */
export type TilerOptionsInput = z.input<typeof tilerOptionsSchema>;

/** Validates options; a bad value is an `InvalidInput` naming the option. */
export function resolveTilerOptions(input: TilerOptionsInput = {}): TilerOptions & { workers: number } {
  const parsed = tilerOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.join('.') : 'options';
    throw new InvalidInput(`tiler.${field}`, issue.message);
  }
  return { ...parsed.data, workers: parsed.data.workers ?? Math.max(1, Math.min(availableParallelism(), 8)) };
}

const FLAG_TO_KEY: Record<string, keyof TilerOptions> = {
  'max-points': 'maxPoints',
  'min-node-size': 'minNodeSize',
  epsg: 'epsg',
  workers: 'workers',
  grid: 'grid',
  quantize: 'quantize',
};

const BOOLEAN_KEYS = new Set<keyof TilerOptions>(['quantize']);

/**
 * Parses the free-text tiler options of the admin setting (and the CLI):
 * `--max-points 60000 --min-node-size 0.15` (also `--flag=value`); unknown
 * flags and bad values are `InvalidInput` errors.
 *
 * @example
 * parseTilerOptions('--max-points 60000 --min-node-size 0.15'); // { maxPoints: 60000, minNodeSize: 0.15, ... }
 */
export function parseTilerOptions(text: string): TilerOptions {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const raw: Record<string, number | boolean> = {};
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(token);
    if (!m) throw new InvalidInput('tiler.options', `expected a --flag, got ${JSON.stringify(token)}`);
    const key = FLAG_TO_KEY[m[1]!];
    if (!key) {
      throw new InvalidInput(
        'tiler.options',
        `unknown option --${m[1]} (known: ${Object.keys(FLAG_TO_KEY)
          .map((f) => `--${f}`)
          .join(', ')})`,
      );
    }
    let value = m[2];
    if (value === undefined) {
      value = tokens[++i];
      if (value === undefined || value.startsWith('--'))
        throw new InvalidInput(`tiler.${key}`, `--${m[1]} needs a value`);
    }
    if (BOOLEAN_KEYS.has(key)) {
      if (!/^(true|false|1|0|yes|no)$/i.test(value)) {
        throw new InvalidInput(`tiler.${key}`, `--${m[1]} needs true or false, got ${JSON.stringify(value)}`);
      }
      raw[key] = /^(true|1|yes)$/i.test(value);
      continue;
    }
    if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)) {
      throw new InvalidInput(`tiler.${key}`, `--${m[1]} needs a number, got ${JSON.stringify(value)}`);
    }
    raw[key] = Number(value);
  }
  const { workers, ...rest } = resolveTilerOptions(raw);
  return raw.workers === undefined ? rest : { ...rest, workers };
}
