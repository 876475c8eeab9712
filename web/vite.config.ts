import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { cesiumAssets } from './src/viewer/globe3d/cesium-assets.vite-plugin.js';

/**
 * The web app is served by the API at `/` (web/dist); in development `vite`
 * proxies `/api`, `/tiles` and `/ogc` to a local server (NUAGE_API_URL, default
 * http://localhost:8080). Paths are relative so the app also works under a sub-path.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react(), cesiumAssets()],
  // Blueprint's dependencies pull a React 18 into the root node_modules for their peer ranges;
  // the app and Blueprint must share the one React 19 of this package.
  resolve: { dedupe: ['react', 'react-dom', 'react/jsx-runtime'] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/tiles', '/ogc'].map((p) => [p, process.env.NUAGE_API_URL ?? 'http://localhost:8080']),
    ),
  },
});
