import { createReadStream, existsSync, statSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';
import { CESIUM_ASSETS_PATH } from './cesium-paths.js';

/** The folders of Cesium's build that Cesium loads at run time (web workers, sky box, widget CSS, draco...). */
const RUNTIME_FOLDERS = ['Workers', 'Assets', 'Widgets', 'ThirdParty'] as const;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.ktx2': 'image/ktx2',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** Folder of `cesium/Build/Cesium` in node_modules. */
export function cesiumBuildDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('cesium/package.json')), 'Build', 'Cesium');
}

/**
 * Serves Cesium's run-time files from our own origin (no CDN, no ion): in
 * development under `/<base>cesium/`, and at build time copies them to
 * `dist/cesium` (about 8 MB: Workers, Assets, Widgets, ThirdParty). The app
 * points CESIUM_BASE_URL there before Cesium starts.
 */
export function cesiumAssets(): Plugin {
  const source = cesiumBuildDir();
  let outDir = 'dist';
  let root = process.cwd();
  let isBuild = false;
  return {
    name: 'nuage:cesium-assets',
    configResolved(config) {
      root = config.root;
      outDir = config.build.outDir;
      isBuild = config.command === 'build';
    },
    configureServer(server) {
      const prefix = `/${CESIUM_ASSETS_PATH}/`;
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '').split('?')[0]!;
        const at = url.indexOf(prefix);
        if (at < 0) return next();
        const rel = decodeURIComponent(url.slice(at + prefix.length));
        const top = rel.split('/')[0] as (typeof RUNTIME_FOLDERS)[number];
        const file = path.resolve(source, rel);
        if (!RUNTIME_FOLDERS.includes(top) || !file.startsWith(source + path.sep) || !existsSync(file)) return next();
        const stat = statSync(file);
        if (!stat.isFile()) return next();
        res.setHeader('Content-Type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
        res.setHeader('Content-Length', String(stat.size));
        res.setHeader('Cache-Control', 'public, max-age=3600');
        createReadStream(file).pipe(res);
      });
    },
    async closeBundle() {
      if (!isBuild) return;
      const target = path.resolve(root, outDir, CESIUM_ASSETS_PATH);
      for (const folder of RUNTIME_FOLDERS) {
        await cp(path.join(source, folder), path.join(target, folder), { recursive: true });
      }
    },
  };
}
