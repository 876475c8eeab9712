import {
  ArcType,
  Cartesian2,
  Cartesian3,
  Cartographic,
  Math as CesiumMath,
  Color,
  CustomDataSource,
  HorizontalOrigin,
  LabelStyle,
  VerticalOrigin,
  type Viewer,
} from 'cesium';
import type { GeodeticPosition, MeasureScene, PickedPosition } from './measure.types.js';

/**
 * The measurement tools in the 3D viewer (Cesium): a click picks the depth of
 * what is drawn under it (`scene.pickPosition`: the points of the cloud,
 * eye-dome lighting included, or a vector), else the globe; measures are
 * drawn as entities (lines, vertices, labels) seen through the points.
 */
export interface GlobeMeasure {
  /** The position under a canvas pixel, or null when the click is in the sky. */
  pick(position: Cartesian2): PickedPosition | null;
  /** Draws the measures of a scene (nothing for undefined). */
  draw(scene: MeasureScene | undefined): void;
  destroy(): void;
}

function cartesianOf(p: GeodeticPosition): Cartesian3 {
  return Cartesian3.fromDegrees(p.lon, p.lat, p.height);
}

function geodeticOf(c: Cartesian3): GeodeticPosition | null {
  const carto = Cartographic.fromCartesian(c);
  if (!carto) return null;
  return {
    lon: CesiumMath.toDegrees(carto.longitude),
    lat: CesiumMath.toDegrees(carto.latitude),
    height: carto.height,
  };
}

/** Creates the measure layer of a Cesium viewer. */
export function createGlobeMeasure(viewer: Viewer): GlobeMeasure {
  const scene = viewer.scene;
  const source = new CustomDataSource('nuage-measure');
  void viewer.dataSources.add(source);
  let drawn: MeasureScene | undefined;

  function pick(position: Cartesian2): PickedPosition | null {
    if (scene.pickPositionSupported) {
      // Something drawn under the pixel (points, vectors): its depth is the position.
      let hit = false;
      try {
        hit = Boolean(scene.pick(position, 3, 3));
      } catch {
        // A primitive that cannot be picked: the depth alone decides.
        hit = true;
      }
      if (hit) {
        try {
          const c = scene.pickPosition(position, new Cartesian3());
          const g = c && Number.isFinite(c.x) ? geodeticOf(c) : null;
          if (g) return { ...g, source: 'cloud' };
        } catch {
          // No depth there: the globe below.
        }
      }
    }
    try {
      const ray = viewer.camera.getPickRay(position);
      const onGlobe = ray ? scene.globe.pick(ray, scene) : undefined;
      const c = onGlobe ?? viewer.camera.pickEllipsoid(position, scene.globe.ellipsoid);
      const g = c ? geodeticOf(c) : null;
      return g ? { ...g, source: 'globe' } : null;
    } catch {
      return null;
    }
  }

  function draw(next: MeasureScene | undefined): void {
    scene.canvas.style.cursor = next?.active ? 'crosshair' : '';
    if (next === drawn) return;
    drawn = next;
    source.entities.suspendEvents();
    source.entities.removeAll();
    for (const line of next?.lines ?? []) {
      if (line.positions.length < 2) continue;
      const positions = line.positions.map(cartesianOf);
      if (line.closed && positions.length > 2) positions.push(positions[0]!);
      const color = Color.fromCssColorString(line.color);
      source.entities.add({
        polyline: {
          positions,
          width: 2.5,
          arcType: ArcType.NONE,
          material: color,
          // Behind the points the line still shows, dimmer.
          depthFailMaterial: color.withAlpha(0.55),
        },
      });
    }
    for (const v of next?.vertices ?? []) {
      source.entities.add({
        position: cartesianOf(v),
        point: {
          pixelSize: 9,
          color: Color.fromCssColorString('#ffd400'),
          outlineColor: Color.BLACK,
          outlineWidth: 1.5,
          disableDepthTestDistance: Number.POSITIVE_INFINITY,
        },
      });
    }
    for (const l of next?.labels ?? []) {
      source.entities.add({
        position: cartesianOf(l.position),
        label: {
          text: l.text,
          font: '600 13px system-ui, sans-serif',
          fillColor: Color.WHITE,
          style: LabelStyle.FILL,
          showBackground: true,
          backgroundColor: Color.fromCssColorString('rgba(17, 20, 24, 0.82)'),
          backgroundPadding: new Cartesian2(6, 4),
          horizontalOrigin: HorizontalOrigin.CENTER,
          verticalOrigin: VerticalOrigin.BOTTOM,
          pixelOffset: new Cartesian2(0, -10),
          disableDepthTestDistance: Number.POSITIVE_INFINITY,
        },
      });
    }
    source.entities.resumeEvents();
    // Entity polylines are built asynchronously: frames are asked for until they are (render on demand).
    const until = performance.now() + 2000;
    const kick = () => {
      if (viewer.isDestroyed()) return;
      scene.requestRender();
      if (performance.now() < until) setTimeout(kick, 150);
    };
    kick();
  }

  return {
    pick,
    draw,
    destroy() {
      if (!viewer.isDestroyed()) viewer.dataSources.remove(source, true);
    },
  };
}
