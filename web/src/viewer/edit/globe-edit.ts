import { Cartesian3, Matrix4, SceneTransforms, type Viewer } from 'cesium';
import { EDIT_COLOR, type EditScene, type ScreenPixel, type ScreenRegion } from './edit.types.js';
import { boxOutline, lassoOutline, projectToPixel, screenRegionOf } from './edit-region.js';

/**
 * The classification-edit overlay of the 3D viewer (Cesium): while a tool is
 * armed, a transparent layer over the canvas takes the pointer, so a drag
 * draws a lasso (free hand) or a box instead of moving the camera; on release
 * the selection becomes a screen region (projection × view of the camera at
 * that moment, the outline in normalized device coordinates). The outline
 * stays drawn (SVG) and the camera stays still while the page says `freeze`,
 * since the region is tied to the view it was drawn in.
 */
export interface GlobeEdit {
  draw(edit: EditScene | undefined): void;
  destroy(): void;
}

/** What a drawing ends with: the region the server selects with and its outline on screen (CSS pixels). */
export interface DrawnRegion {
  region: ScreenRegion;
  outline: ScreenPixel[];
}

/** The test hook of the browser journeys: where ECEF points land through the edit matrix and through Cesium. */
interface EditProbe {
  project(points: [number, number, number][]): Array<{ matrix: ScreenPixel | null; cesium: ScreenPixel | null }>;
  /** The current view's clip matrix (column-major). */
  matrix(): number[];
  size(): { css: [number, number]; buffer: [number, number] };
}

declare global {
  interface Window {
    __nuageEditProbe?: EditProbe;
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The camera's clip matrix now: the frustum's projection × the view (column-major arrays). */
function cameraMatrices(viewer: Viewer): { projection: number[]; view: number[] } {
  const camera = viewer.camera;
  return {
    projection: Matrix4.toArray(camera.frustum.projectionMatrix),
    view: Matrix4.toArray(camera.viewMatrix),
  };
}

/** Creates the edit overlay of a Cesium viewer; `onRegion` hears each finished drawing. */
export function createGlobeEdit(viewer: Viewer, onRegion: (drawn: DrawnRegion) => void): GlobeEdit {
  const scene = viewer.scene;
  const canvas = scene.canvas;
  const host = canvas.parentElement ?? (viewer.container as HTMLElement);
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'nu-edit-overlay');
  svg.setAttribute('data-testid', 'edit-overlay');
  Object.assign(svg.style, {
    position: 'absolute',
    left: '0',
    top: '0',
    width: '100%',
    height: '100%',
    pointerEvents: 'none',
    zIndex: '2',
    touchAction: 'none',
  });
  const halo = document.createElementNS(SVG_NS, 'polygon');
  halo.setAttribute('fill', 'none');
  halo.setAttribute('stroke', 'rgba(0, 0, 0, 0.75)');
  halo.setAttribute('stroke-width', '4');
  const shape = document.createElementNS(SVG_NS, 'polygon');
  shape.setAttribute('fill', 'rgba(255, 255, 255, 0.14)');
  shape.setAttribute('fill-rule', 'evenodd');
  shape.setAttribute('stroke', EDIT_COLOR);
  shape.setAttribute('stroke-width', '1.5');
  shape.setAttribute('stroke-dasharray', '6 4');
  svg.append(halo, shape);
  if (getComputedStyle(host).position === 'static') host.style.position = 'relative';
  host.appendChild(svg);

  let current: EditScene | undefined;
  let dragging: { tool: 'lasso' | 'box'; points: ScreenPixel[]; pointerId: number } | null = null;

  function show(points: readonly ScreenPixel[] | null): void {
    const text = points ? points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ') : '';
    shape.setAttribute('points', text);
    halo.setAttribute('points', text);
    svg.dataset.vertices = String(points?.length ?? 0);
  }

  function local(e: PointerEvent): ScreenPixel {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  function outlineOf(d: NonNullable<typeof dragging>): ScreenPixel[] {
    if (d.tool === 'box') return boxOutline(d.points[0]!, d.points[d.points.length - 1]!);
    return d.points;
  }

  const onDown = (e: PointerEvent) => {
    const tool = current?.tool;
    if (!tool || e.button !== 0) return;
    e.preventDefault();
    svg.setPointerCapture(e.pointerId);
    dragging = { tool, points: [local(e)], pointerId: e.pointerId };
    show(null);
  };
  const onMove = (e: PointerEvent) => {
    if (!dragging || e.pointerId !== dragging.pointerId) return;
    const p = local(e);
    if (dragging.tool === 'box') dragging.points[1] = p;
    else dragging.points.push(p);
    show(outlineOf(dragging));
  };
  const onUp = (e: PointerEvent) => {
    if (!dragging || e.pointerId !== dragging.pointerId) return;
    const d = dragging;
    dragging = null;
    if (svg.hasPointerCapture(e.pointerId)) svg.releasePointerCapture(e.pointerId);
    d.points.push(local(e));
    const outline = lassoOutline(outlineOf(d), d.tool === 'box' ? 0 : 2);
    if (!outline) {
      show(current?.outline ?? null);
      return;
    }
    const { projection, view } = cameraMatrices(viewer);
    const region = screenRegionOf(projection, view, outline, canvas.clientWidth, canvas.clientHeight);
    show(outline);
    onRegion({ region, outline });
  };
  const onCancel = (e: PointerEvent) => {
    if (!dragging || e.pointerId !== dragging.pointerId) return;
    dragging = null;
    show(current?.outline ?? null);
  };
  svg.addEventListener('pointerdown', onDown);
  svg.addEventListener('pointermove', onMove);
  svg.addEventListener('pointerup', onUp);
  svg.addEventListener('pointercancel', onCancel);

  window.__nuageEditProbe = {
    project(points) {
      const { projection, view } = cameraMatrices(viewer);
      const region = screenRegionOf(projection, view, [], canvas.clientWidth, canvas.clientHeight);
      return points.map(([x, y, z]) => {
        const c = SceneTransforms.worldToWindowCoordinates(scene, new Cartesian3(x, y, z));
        return {
          matrix: projectToPixel(region.matrix, [x, y, z], canvas.clientWidth, canvas.clientHeight),
          cesium: c ? [c.x, c.y] : null,
        };
      });
    },
    matrix() {
      const { projection, view } = cameraMatrices(viewer);
      return screenRegionOf(projection, view, [], 1, 1).matrix;
    },
    size: () => ({ css: [canvas.clientWidth, canvas.clientHeight], buffer: [canvas.width, canvas.height] }),
  };

  function draw(next: EditScene | undefined): void {
    current = next;
    const armed = Boolean(next?.tool);
    svg.style.pointerEvents = armed ? 'auto' : 'none';
    svg.style.cursor = armed ? 'crosshair' : '';
    svg.dataset.tool = next?.tool ?? '';
    if (!armed && dragging) dragging = null;
    if (!dragging) show(next?.outline ?? null);
    // The selection is tied to the view it was drawn in: the camera waits while it is kept.
    scene.screenSpaceCameraController.enableInputs = !(next?.freeze ?? false);
  }

  return {
    draw,
    destroy() {
      svg.removeEventListener('pointerdown', onDown);
      svg.removeEventListener('pointermove', onMove);
      svg.removeEventListener('pointerup', onUp);
      svg.removeEventListener('pointercancel', onCancel);
      svg.remove();
      delete window.__nuageEditProbe;
      if (!viewer.isDestroyed()) scene.screenSpaceCameraController.enableInputs = true;
    },
  };
}
