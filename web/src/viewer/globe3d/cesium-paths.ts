/** Folder of Cesium's run-time files, relative to index.html (dev server and web/dist alike). */
export const CESIUM_ASSETS_PATH = 'cesium';
