import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { type GroundAgreement, groundAgreement } from '../products/quality.metrics.js';
import { type GroundOptions, groundFilter } from './ground.filter.js';
import { noiseFilter } from './noise.filter.js';

/**
 * The ISPRS WG III/3 filter test (Sithole & Vosselman 2004): text samples of
 * `X Y Z label` lines, label 0 bare earth and 1 object. Scored the way the
 * literature does: Type I (ground missed), Type II (object taken as ground),
 * total error and Cohen's kappa per sample, then their means over samples.
 */
export interface IsprsSample {
  name: string;
  cloud: PointChunk;
  /** Reference per point as ASPRS codes: 2 bare earth, 1 object. */
  reference: Uint8Array;
}

/** Reads one ISPRS sample; the cloud carries no classification (the filter sees no labels). */
export async function readIsprsSample(file: string): Promise<IsprsSample> {
  const text = await readFile(file, 'utf8');
  const lines = text.split('\n');
  const x = new Float64Array(lines.length);
  const y = new Float64Array(lines.length);
  const z = new Float64Array(lines.length);
  const reference = new Uint8Array(lines.length);
  let n = 0;
  for (const line of lines) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || f[0] === '') continue;
    const label = Number(f[3]);
    if (label !== 0 && label !== 1)
      throw new InvalidInput('label', `${path.basename(file)}: label ${f[3]} is neither 0 nor 1`);
    x[n] = Number(f[0]);
    y[n] = Number(f[1]);
    z[n] = Number(f[2]);
    reference[n] = label === 0 ? 2 : 1;
    n++;
  }
  return {
    name: path.basename(file, path.extname(file)),
    cloud: { count: n, x: x.subarray(0, n), y: y.subarray(0, n), z: z.subarray(0, n) },
    reference: reference.subarray(0, n),
  };
}

/** Noise then ground filter with the given options (defaults: the shipped parameter set), scored. */
export function scoreIsprsSample(sample: IsprsSample, options: GroundOptions = {}): GroundAgreement {
  const noise = noiseFilter(sample.cloud);
  const { ground } = groundFilter(sample.cloud, noise, options);
  return groundAgreement(ground, sample.reference, sample.cloud.count);
}
