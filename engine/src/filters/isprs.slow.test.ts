import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIsprsSample, scoreIsprsSample } from './isprs.js';

/**
 * The ground filter on the ISPRS WG III/3 filter test (7 of the 15 samples in
 * ../shared/data/isprs; the 8 others are held back), with ONE parameter set:
 * the defaults. Floors are the means reached on 2026-11-27 with the
 * embankment test (long, wide raised surfaces falling from their axis to
 * sloping flanks, samp61's dam, rejoin the ground; bushes on their crest
 * leave it): TE 2.34 %, kappa 90.28 %; per sample TE / kappa: samp12 3.05 /
 * 93.9, samp21 1.38 / 95.9, samp23 4.45 / 91.1, samp42 1.64 / 96.1, samp53
 * 2.37 / 72.9, samp54 2.70 / 94.6, samp61 0.79 / 87.5, rounded
 * against us: a regression guard. Before it: TE 2.53 %, kappa 88.31 %
 * (samp61 2.14 / 73.7), with the step-face pass (returns on quarry walls and
 * cliffs between ground foot and top) and the densification's smoothness
 * threshold scaled with the point spacing. Before them: TE 2.74 %, kappa 86.85 % (level and slope
 * growth over terrain steps, the deck check and the raised-point check);
 * before that TE 3.39 %, kappa 84.35 % (smooth-segment
 * check and roughness-gated densification); before that TE 3.89 %, kappa
 * 82.6 %; before the TIN densification: TE 5.02 %, kappa 78.5 %. The project's goal
 * (issue 19) is TE <= 3.0 % and kappa >= 90 %.
 */
const DIR = path.resolve(import.meta.dirname, '../../../../shared/data/isprs');
const SAMPLES = ['samp12', 'samp21', 'samp23', 'samp42', 'samp53', 'samp54', 'samp61'];
const present = existsSync(DIR);

if (!present && process.env.CI) {
  throw new Error(`the ISPRS samples are missing: ${DIR} (the scoring test must run in CI)`);
}
if (!present) console.warn(`isprs.slow.test: skipped, ${DIR} is missing`);

describe.runIf(present)('ground filter on the ISPRS filter test (one parameter set)', () => {
  it('mean total error <= 2.34 % and mean kappa >= 90.2 % over the 7 samples', async () => {
    let te = 0;
    let kappa = 0;
    const rows: string[] = [];
    for (const name of SAMPLES) {
      const sample = await readIsprsSample(path.join(DIR, `${name}.txt`));
      const a = scoreIsprsSample(sample);
      expect(a.compared).toBe(sample.cloud.count);
      te += a.totalError;
      kappa += a.kappa;
      const pc = (v: number) => (100 * v).toFixed(2);
      rows.push(`${name} TE ${pc(a.totalError)} I ${pc(a.typeIError)} II ${pc(a.typeIIError)} kappa ${pc(a.kappa)}`);
      // Every sample keeps a sound labelling (no collapse to all-ground or all-object).
      expect(a.kappa).toBeGreaterThan(0.6);
    }
    console.log(rows.join('\n'));
    expect(te / SAMPLES.length).toBeLessThanOrEqual(0.0234);
    expect(kappa / SAMPLES.length).toBeGreaterThanOrEqual(0.902);
  }, 300_000);
});
