#!/usr/bin/env node
// Builds the web app (web/dist) when it is missing or older than its sources,
// so `npm start` on a fresh clone serves a current app without a separate step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'web');
const marker = path.join(web, 'dist', 'index.html');

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let m = s.mtimeMs;
  for (const e of readdirSync(p)) {
    if (e === 'node_modules' || e === 'dist' || e === 'e2e') continue;
    m = Math.max(m, newest(path.join(p, e)));
  }
  return m;
}

if (!existsSync(path.join(web, 'package.json')) || !existsSync(path.join(web, 'index.html'))) process.exit(0);
const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const sources = Math.max(
  newest(path.join(web, 'src')),
  newest(path.join(web, 'public')),
  newest(path.join(web, 'index.html')),
  newest(path.join(web, 'vite.config.ts')),
);
if (built >= sources) process.exit(0);
console.log('Building the web app (web/dist)...');
const t0 = Date.now();
const r = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
if (r.status === 0) console.log(`Web app built in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
process.exit(r.status ?? 1);
