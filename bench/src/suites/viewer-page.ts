/**
 * The viewer bench's page: the app's own viewers (web/src/viewer, the Cesium
 * globe and the MapLibre + deck.gl map, unchanged) built by Vite into a
 * folder and served with tilesets made by the engine's tiler, by a plain
 * static server (the tiler's output as the API would serve it).
 *
 * The page reads `?tileset=<url>&mode=3d|2d[&edl=1]`, opens the viewer on that one
 * cloud and records, in `window.benchViewer`, when each viewer event came
 * (ms since navigation start) and, in 3D, when Cesium first drew a tile of
 * points and each frame it rendered (`Scene.postRender`); `orbit(seconds)`
 * turns the camera round the cloud at 12°/s frame by frame and answers the
 * frames rendered meanwhile; `tour(count, seconds)` flies close to places
 * that hold points and samples the tileset's memory against the tile cache's limits.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');

/**
 * The page's script: plain JavaScript (a browser module), compiled by Vite with
 * the viewers it imports from `viewer` (a web/src/viewer folder: this repo's, or
 * an older checkout's, whose createGlobeViewer / createMapViewer take the same
 * container, scene description and event callback).
 */
const pageScript = (viewer: string) => `
import { Cesium3DTileset, HeadingPitchRange, Math as CesiumMath, Matrix4, Scene } from 'cesium';
import { createGlobeViewer } from '${viewer}/globe3d/globe-viewer.ts';
import { createMapViewer } from '${viewer}/map2d/map-viewer.ts';

const q = new URLSearchParams(location.search);
const mode = q.get('mode') === '2d' ? '2d' : '3d';
const bench = { mode, events: [], firstTileVisible: null, frames: [], scene: null, tileset: null, errors: [] };
window.benchViewer = bench;
const now = () => performance.now();

// The scene: caught on its first frame, each rendered frame timed.
const render = Scene.prototype.render;
Scene.prototype.render = function (time) {
  if (!bench.scene) {
    bench.scene = this;
    this.postRender.addEventListener(() => bench.frames.push(now()));
  }
  return render.call(this, time);
};
// The tileset: the first visible tile is the first frame with points in it.
const fromUrl = Cesium3DTileset.fromUrl;
Cesium3DTileset.fromUrl = async function (...args) {
  const tileset = await fromUrl.apply(this, args);
  bench.tileset = tileset;
  tileset.tileVisible.addEventListener(() => {
    if (bench.firstTileVisible === null) bench.firstTileVisible = now();
  });
  return tileset;
};

/** Turns the camera round the cloud for \`seconds\`, one step a frame; answers the frames Cesium rendered. */
bench.orbit = (seconds) =>
  new Promise((resolve) => {
    const scene = bench.scene;
    const sphere = bench.tileset.boundingSphere;
    const start = now();
    const before = bench.frames.length;
    const range = sphere.radius * 1.7;
    const step = () => {
      const t = (now() - start) / 1000;
      scene.camera.lookAt(
        sphere.center,
        new HeadingPitchRange(CesiumMath.toRadians(20 + 12 * t), CesiumMath.toRadians(-40), range),
      );
      scene.requestRender();
      if (t < seconds) requestAnimationFrame(step);
      else {
        scene.camera.lookAtTransform(Matrix4.IDENTITY);
        const frames = bench.frames.slice(before);
        resolve({ seconds: (now() - start) / 1000, frames: frames.length, times: frames });
      }
    };
    requestAnimationFrame(step);
  });

/**
 * Flies close to \`count\` places of the cloud that hold points (the centres of
 * tiles spread over the tileset, taken from its deepest loaded levels, as a
 * user zooms to where the points are), one after the other, each until its
 * tiles are loaded (or \`secondsPerStop\`), and samples the tileset's memory
 * every frame: answers the peak, the last value and the cache limits the
 * viewer set (spec §9: 100 MB + 100 MB overflow).
 */
bench.tour = (count, secondsPerStop) =>
  new Promise((resolve) => {
    const scene = bench.scene;
    const tileset = bench.tileset;
    // Every tile of the tree (loaded or not): their bounding spheres are known from tileset.json.
    const all = [];
    const walk = (tile, depth) => {
      all.push({ tile, depth });
      for (const child of tile.children) walk(child, depth + 1);
    };
    walk(tileset.root, 0);
    const deepest = Math.max(...all.map((t) => t.depth));
    const deep = all.filter((t) => t.depth >= Math.max(1, deepest - 1));
    const spots = [];
    for (let k = 0; k < Math.min(count, deep.length); k++) {
      const { tile } = deep[Math.floor(((k + 0.5) * deep.length) / Math.min(count, deep.length))];
      spots.push({ center: tile.boundingSphere.center, range: Math.max(20, tile.boundingSphere.radius * 1.5) });
    }
    let peak = 0;
    let loads = 0;
    const sample = () => {
      peak = Math.max(peak, tileset.totalMemoryUsageInBytes);
    };
    const removeSample = scene.postRender.addEventListener(sample);
    const removeLoad = tileset.tileLoad.addEventListener(() => loads++);
    const perStop = [];
    let index = 0;
    const next = () => {
      if (index >= spots.length) {
        scene.camera.lookAtTransform(Matrix4.IDENTITY);
        removeSample();
        removeLoad();
        resolve({
          stops: spots.length,
          tilesLoaded: loads,
          peakBytes: peak,
          lastBytes: tileset.totalMemoryUsageInBytes,
          cacheBytes: tileset.cacheBytes,
          maximumCacheOverflowBytes: tileset.maximumCacheOverflowBytes,
          perStop,
        });
        return;
      }
      const spot = spots[index++];
      scene.camera.lookAt(spot.center, new HeadingPitchRange(CesiumMath.toRadians(30 * index), CesiumMath.toRadians(-35), spot.range));
      scene.requestRender();
      const started = now();
      const framesBefore = bench.frames.length;
      const wait = () => {
        scene.requestRender();
        const waited = now() - started;
        // Settled: a few frames drawn from the new spot (its tile requests are made in frames) and nothing loading.
        const settled = bench.frames.length - framesBefore >= 8 && tileset.tilesLoaded;
        if (settled || waited > secondsPerStop * 1000) {
          perStop.push({ ms: Math.round(waited), bytes: tileset.totalMemoryUsageInBytes, loaded: tileset.tilesLoaded });
          next();
        } else requestAnimationFrame(wait);
      };
      requestAnimationFrame(wait);
    };
    next();
  });

const scene = {
  layers: [{ kind: 'pointCloud', id: 'cloud', name: 'cloud', tilesetUrl: q.get('tileset'), visible: true }],
  pointMode: q.get('pointMode') ?? 'CLASS',
  pointSize: 2,
  imagery: 'none',
  hiddenClasses: [],
  // ?edl=1: eye-dome lighting on (the viewers from before it became a setting always had it on).
  ...(q.get('edl') === '1' ? { shading: { eyeDomeLighting: true, strength: 1, radius: 1 } } : {}),
};
const create = mode === '2d' ? createMapViewer : createGlobeViewer;
create(document.getElementById('stage'), scene, (e) => {
  bench.events.push({ type: e.type, at: now(), ...(e.type === 'error' ? { message: e.message } : {}) });
  if (e.type === 'error') bench.errors.push(e.message);
}).then(
  (handle) => {
    bench.handle = handle;
  },
  (err) => bench.errors.push(String(err)),
);
`;

const PAGE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Nuage viewer bench</title>
    <style>html, body, #stage { margin: 0; width: 100%; height: 100%; overflow: hidden; background: #0d1117; }</style>
  </head>
  <body>
    <div id="stage"></div>
    <script type="module" src="./page.js"></script>
  </body>
</html>
`;

/** The `cesium` package a checkout's web app resolves (its web/node_modules, else its root node_modules). */
function cesiumOf(tree: string): string {
  const require = createRequire(path.join(tree, 'web', 'package.json'));
  return path.dirname(require.resolve('cesium/package.json'));
}

/**
 * Builds the page (Vite, the web app's Cesium assets plugin) into `outDir`;
 * answers the folder to serve. `tree` is the checkout whose web/src/viewer the
 * page opens (default this repo): its own packages (Cesium, MapLibre, deck.gl)
 * resolve from its node_modules, and its Cesium assets plugin copies its
 * Cesium's run-time files.
 */
export async function buildViewerPage(outDir: string, tree: string = REPO): Promise<string> {
  const src = path.join(outDir, 'src');
  const dist = path.join(outDir, 'dist');
  await mkdir(src, { recursive: true });
  await writeFile(path.join(src, 'index.html'), PAGE_HTML);
  await writeFile(path.join(src, 'page.js'), pageScript(path.join(tree, 'web', 'src', 'viewer')));
  const { build } = await import('vite');
  const plugin = path.join(tree, 'web', 'src', 'viewer', 'globe3d', 'cesium-assets.vite-plugin.ts');
  const { cesiumAssets } = (await import(
    tree === REPO ? '../../../web/src/viewer/globe3d/cesium-assets.vite-plugin.js' : pathToFileURL(plugin).href
  )) as typeof import('../../../web/src/viewer/globe3d/cesium-assets.vite-plugin.js');
  await build({
    configFile: false,
    root: src,
    base: './',
    logLevel: 'warn',
    plugins: [cesiumAssets()],
    // The page's folder is outside the checkout: Cesium resolves to the one its viewers import.
    resolve: {
      alias: [{ find: /^cesium$/, replacement: path.join(cesiumOf(tree), 'Source', 'Cesium.js') }],
    },
    server: { fs: { allow: [tree, outDir] } },
    build: { outDir: dist, emptyOutDir: true, chunkSizeWarningLimit: 10_000, reportCompressedSize: false },
  });
  return dist;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.glb': 'model/gltf-binary',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** A static server: `/` the built page, `/tiles/<name>/…` each tileset folder. Answers its base URL. */
export async function serveViewerPage(
  dist: string,
  tilesets: Record<string, string>,
): Promise<{ url: string; server: Server; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const url = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const m = /^\/tiles\/([^/]+)\/(.*)$/.exec(url);
    const root = m ? tilesets[m[1]!] : dist;
    const rel = m ? m[2]! : url.slice(1) || 'index.html';
    const file = root ? path.resolve(root, rel) : '';
    if (!root || !file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': String(statSync(file).size),
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, server, requests: () => requests };
}
