import { CESIUM_ASSETS_PATH } from './cesium-paths.js';

/*
 * Tells Cesium where its run-time files are (web workers, sky box, widget
 * CSS): our own origin, next to index.html (copied there at build time by
 * cesium-assets.vite-plugin.ts). Imported before `cesium` so the value is set
 * before Cesium resolves any of them.
 */
(globalThis as { CESIUM_BASE_URL?: string }).CESIUM_BASE_URL = new URL(`${CESIUM_ASSETS_PATH}/`, document.baseURI).href;
