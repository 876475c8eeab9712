import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The `nuage` command loads the code of the verb it runs and nothing else
 * (issue 24: the fixed start-up of every command). Each case runs the real
 * command (its cached bundle) in a fresh Node whose module resolutions are
 * logged by a loader hook, and checks which packages and how much of the
 * bundle it loaded. Timings are in `npm run bench -- cli`.
 */
const BIN = path.resolve(import.meta.dirname, '../bin/nuage.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'nuage-cli-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOOK = path.join(dir, 'log-resolutions.mjs');
writeFileSync(
  HOOK,
  `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write('resolved ' + resolved.url + '\\\\n');
  return resolved;
}\`));
`,
);

/** Runs `nuage args…`; the packages it loaded (by name) and the bytes of bundle files it loaded. */
function loadsOf(args: string[]): { status: number | null; stdout: string; packages: string[]; bundleBytes: number } {
  const result = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], { encoding: 'utf8' });
  const urls = [...result.stderr.matchAll(/^resolved (file:\S+)$/gm)].map((m) => m[1]!);
  const files = [...new Set(urls.map((u) => fileURLToPath(u)))];
  const bundle = files.filter((f) => f.includes(`${path.sep}nuage-bundles${path.sep}`));
  const packages = new Set<string>();
  for (const f of files) {
    if (bundle.includes(f)) continue;
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(f);
    if (m) packages.add(m[1]!.replace(/\\/g, '/'));
  }
  return {
    status: result.status,
    stdout: result.stdout,
    packages: [...packages].sort(),
    bundleBytes: bundle.reduce((sum, f) => sum + statSync(f).size, 0),
  };
}

describe('nuage start-up', () => {
  // A first run builds the bundle when the sources changed (esbuild then loads): not what is measured.
  beforeAll(() => {
    expect(spawnSync(process.execPath, [BIN, '--help']).status).toBe(0);
  }, 120_000);

  it('prints its help, and a verb its usage, without loading any package or the products', () => {
    const help = loadsOf(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: nuage <verb>/);
    // Every verb of the registry is listed, from the catalog alone.
    expect(help.stdout).toMatch(/nuage tree-fall-risk IN OUTDIR/);
    expect(help.packages).toEqual([]);
    // The whole bundle is about 750 kB; the help reads a few verbs' descriptions.
    expect(help.bundleBytes).toBeLessThan(80_000);

    const verb = loadsOf(['hillshade', '--help']);
    expect(verb.status).toBe(0);
    expect(verb.stdout).toMatch(/^usage: nuage hillshade IN OUTDIR .*--dtm-resolution-cm CM/);
    expect(verb.packages).toEqual([]);
  });

  it('loads what a verb needs when it runs, and still refuses bad options before reading any file', () => {
    const bad = loadsOf(['dtm', 'in.laz', 'out', '--dtm-resolution-cm', '5']);
    expect(bad.status).toBe(2);
    // The options are validated by their zod schema, loaded for the run only.
    expect(bad.packages).toEqual(['zod']);
  });
});
