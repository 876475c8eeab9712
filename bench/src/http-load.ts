/**
 * A bounded HTTP load from a separate process, as a GIS client would send it:
 * autocannon (the HTTP benchmarking tool) in a child Node process keeps
 * `connections` keep-alive connections busy until every URL of the list was
 * asked once, in order. Each request's latency (ms, from autocannon's
 * per-response timing) and the wall time (s) come back; a status outside `ok`
 * fails the run. Running the client outside the server's process keeps its
 * cost off the server's event loop (it still shares the machine's cores).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CHILD = `
const autocannon = require(process.env.AUTOCANNON_PATH);
const fs = require('node:fs');
const { origin, paths, connections, headers, ok } = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
let next = 0;
const ms = [];
const errors = [];
const started = performance.now();
const instance = autocannon({
  url: origin,
  connections,
  amount: paths.length,
  timeout: 60,
  headers,
  requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
}, (err) => {
  if (err) { console.error(String(err)); process.exit(1); }
  // Up to the last answer: autocannon calls back on the next tick of its one-second sampler, which added up
  // to a second to every run (a run of 1.17 s reported as 2.07 s), and so divided short runs' throughput.
  const seconds = (last - started) / 1000;
  fs.writeFileSync(process.argv[1] + '.out', JSON.stringify({ ms, seconds, errors }));
});
let last = started;
instance.on('response', (_client, status, _bytes, responseTime) => {
  last = performance.now();
  ms.push(responseTime);
  if (!ok.includes(status)) errors.push(status);
});
instance.on('reqError', (e) => errors.push(String(e)));
`;

export async function loadHttpProcess(
  urls: string[],
  connections: number,
  headers: Record<string, string>,
  ok: number[] = [200],
): Promise<{ ms: number[]; seconds: number }> {
  const origin = new URL(urls[0]!).origin;
  const paths = urls.map((u) => {
    const x = new URL(u);
    return x.pathname + x.search;
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'nuage-load-'));
  const input = path.join(dir, 'load.json');
  try {
    await writeFile(input, JSON.stringify({ origin, paths, connections, headers, ok }));
    const autocannonPath = createRequire(import.meta.url).resolve('autocannon');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', CHILD, input], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, AUTOCANNON_PATH: autocannonPath },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`load process exited ${code}: ${stderr.slice(-500)}`)),
      );
    });
    const r = JSON.parse(await readFile(`${input}.out`, 'utf8')) as {
      ms: number[];
      seconds: number;
      errors: unknown[];
    };
    if (r.errors.length > 0) throw new Error(`${r.errors.length} failed requests, e.g. ${String(r.errors[0])}`);
    if (r.ms.length !== urls.length) throw new Error(`${r.ms.length} answers for ${urls.length} requests`);
    return { ms: r.ms, seconds: r.seconds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
