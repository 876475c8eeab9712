/**
 * Classification editing (issue 23) as the viewers see it, in plain data (no
 * Cesium, no deck.gl types): the selection regions the server understands
 * (the contract of `POST /projects/{id}/classification-edits`) and what the
 * page hands the 3D viewer to draw one.
 */

/** A pixel of the scene in CSS pixels from its top-left corner. */
export type ScreenPixel = [number, number];

/**
 * A lasso or a box drawn on the 3D view: `matrix` (16 numbers, column-major,
 * Cesium `Matrix4.toArray` order) is projection × view, mapping ECEF metres to
 * clip space; `polygon` is in normalized device coordinates
 * (x = 2·px/width − 1, y = 1 − 2·py/height), 3 to 2000 vertices.
 */
export interface ScreenRegion {
  kind: 'screen';
  matrix: number[];
  polygon: [number, number][];
}

/** A polygon drawn on the 2D map: 3 to 2000 vertices, [lon, lat] in degrees (EPSG:4326). */
export interface MapRegion {
  kind: 'map';
  polygon: [number, number][];
}

export type EditRegion = ScreenRegion | MapRegion;

/** How a selection is drawn in 3D: a free-hand lasso or a box (drag from corner to corner). */
export type EditDrawTool = 'lasso' | 'box';

/**
 * The edit overlay of the 3D viewer: while `tool` is set, a drag in the scene
 * draws a selection (the camera does not take it) and ends in an
 * `editRegion` event; `outline` is the selection kept on screen; while
 * `freeze` is true the camera stays where the selection was drawn (the
 * selection is tied to that view).
 */
export interface EditScene {
  tool: EditDrawTool | null;
  outline: ScreenPixel[] | null;
  freeze: boolean;
}

/** Most vertices of a region's polygon (the server's limit). */
export const MAX_REGION_VERTICES = 2000;

/** The colour of the edit selection: white (drawn with a dark halo), which no class of the legend uses. */
export const EDIT_COLOR = '#ffffff';
