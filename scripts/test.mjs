#!/usr/bin/env node
// `npm test`: every package's tests and the browser tests (vitest projects),
// then one closing line "tests: N passed, N failed, N skipped".
// Database tests need PostgreSQL with PostGIS (TEST_DATABASE_URL, default the
// local server); when PostGIS or chromium is missing and we may install
// packages, .ci/setup installs them first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pgVersions = existsSync('/etc/postgresql')
  ? spawnSync('ls', ['/etc/postgresql']).stdout.toString().trim().split('\n')
  : [];
const pgv = pgVersions.sort().at(-1);
const missing =
  (pgv && !existsSync(`/usr/share/postgresql/${pgv}/extension/postgis.control`)) ||
  !existsSync('/usr/bin/chromium') ||
  !existsSync('/usr/bin/pdftotext');
if (missing && !process.env.TEST_DATABASE_URL) {
  console.log('npm test: PostGIS, chromium or poppler is missing; installing them with .ci/setup');
  const r = spawnSync('bash', [path.join(root, '.ci', 'setup')], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('error: .ci/setup failed; install PostGIS and chromium, or set TEST_DATABASE_URL');
    process.exit(1);
  }
}

// With no arguments, two phases: every package's tests, then the browser journeys alone (they
// render WebGL in software and would otherwise share the 2 cores with the engine's heavy tests).
// With arguments (`npm test -- engine/src/x.test.ts`), one vitest run with them.
const extra = process.argv.slice(2);
const phases = extra.length ? [undefined] : ['units', 'browser'];
let status = 0;
const totals = { passed: 0, failed: 0, skipped: 0, suites: 0, reports: 0 };
// The failures, named again at the very end: a long run's log is often read from its tail.
const failures = [];
for (const phase of phases) {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'nuage-vitest-')), 'results.json');
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra];
  if (phase) console.log(`npm test: ${phase === 'units' ? "the packages' tests" : 'the browser journeys'}`);
  const env = phase ? { ...process.env, NUAGE_TEST_PHASE: phase } : process.env;
  const run = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env });
  if ((run.status ?? 1) !== 0) status = run.status ?? 1;
  let summary = null;
  try {
    summary = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    // vitest died before writing its report: the exit code says it all.
  }
  if (!summary) continue;
  totals.reports++;
  totals.passed += summary.numPassedTests ?? 0;
  totals.failed += summary.numFailedTests ?? 0;
  totals.skipped += (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
  // A suite (file or describe block) that failed: its tests' failures are counted above; a file that
  // failed before any test ran (an import error, a hook) has none, so it is named apart.
  totals.suites += (summary.testResults ?? []).filter(
    (r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  for (const file of summary.testResults ?? []) {
    const where = path.relative(root, file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) {
      const first = (a.failureMessages ?? [])[0]?.split('\n')[0] ?? '';
      failures.push(`${where} > ${a.fullName ?? a.title}: ${first.slice(0, 300)}`);
    }
    if (file.status === 'failed' && !failed.length)
      failures.push(`${where}: ${(file.message ?? '').split('\n')[0].slice(0, 300)}`);
  }
}
if (failures.length) {
  console.log('failed:');
  for (const f of failures) console.log(`  ${f}`);
}
if (totals.reports) {
  const { passed, failed, skipped, suites } = totals;
  console.log(
    `tests: ${passed} passed, ${failed} failed, ${skipped} skipped${suites ? `; ${suites} test files failed outside their tests` : ''}`,
  );
}
process.exit(status);
