import type { Layer } from '@deck.gl/core';
import { PathLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import { ecefToGeodetic, geodeticToEcef } from '../glb-points.js';
import type { MeasureScene, PickedPosition } from './measure.types.js';

/**
 * The measurement tools on the 2D map (deck.gl): a click takes the nearest
 * point of the loaded cloud within a few pixels (its position and height),
 * else the clicked place without a height (the tools then ask the DTM);
 * measures are drawn as paths, dots and labels over the points.
 */

/** A cloud of the map: ECEF positions (metres) of its loaded points. */
export interface MapCloudPoints {
  count: number;
  ecef: Float64Array;
}

/** Ground metres per CSS pixel at a latitude and a MapLibre zoom (512-pixel tiles). */
export function metresPerPixel(lat: number, zoom: number): number {
  return (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** zoom);
}

/**
 * The position of a click at `lon`, `lat`: the loaded point nearest to it
 * horizontally within `radius` metres (its own position and height), else the
 * clicked place with no height.
 */
export function pickOnMap(lon: number, lat: number, clouds: readonly MapCloudPoints[], radius: number): PickedPosition {
  // Horizontal distance in the local east-north plane of the click.
  const l = (lon * Math.PI) / 180;
  const p = (lat * Math.PI) / 180;
  const [sl, cl, sp, cp] = [Math.sin(l), Math.cos(l), Math.sin(p), Math.cos(p)];
  const [ox, oy, oz] = geodeticToEcef(lon, lat, 0);
  let best: { cloud: MapCloudPoints; index: number } | null = null;
  let bestD2 = radius * radius;
  for (const cloud of clouds) {
    const e = cloud.ecef;
    for (let i = 0; i < cloud.count; i++) {
      const dx = e[i * 3]! - ox;
      const dy = e[i * 3 + 1]! - oy;
      const dz = e[i * 3 + 2]! - oz;
      const east = -sl * dx + cl * dy;
      const north = -sp * cl * dx - sp * sl * dy + cp * dz;
      const d2 = east * east + north * north;
      if (d2 <= bestD2) {
        bestD2 = d2;
        best = { cloud, index: i };
      }
    }
  }
  if (!best) return { lon, lat, height: null, source: 'map' };
  const e = best.cloud.ecef;
  const i = best.index;
  const [plon, plat, h] = ecefToGeodetic(e[i * 3]!, e[i * 3 + 1]!, e[i * 3 + 2]!);
  return { lon: plon, lat: plat, height: h, source: 'cloud' };
}

function rgba(css: string, alpha = 255): [number, number, number, number] {
  const v = Number.parseInt(css.slice(1, 7), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255, alpha];
}

/** The deck.gl layers drawing a measure scene (none for undefined). */
export function mapMeasureLayers(scene: MeasureScene | undefined): Layer[] {
  if (!scene) return [];
  const paths = scene.lines
    .filter((l) => l.positions.length >= 2)
    .map((l) => {
      const path = l.positions.map((p) => [p.lon, p.lat] as [number, number]);
      if (l.closed && path.length > 2) path.push(path[0]!);
      return { path, color: rgba(l.color) };
    });
  return [
    new PathLayer({
      id: 'measure-lines',
      data: paths,
      getPath: (d: (typeof paths)[number]) => d.path,
      getColor: (d: (typeof paths)[number]) => d.color,
      getWidth: 2.5,
      widthUnits: 'pixels',
      parameters: { depthCompare: 'always' },
    }),
    new ScatterplotLayer({
      id: 'measure-vertices',
      data: scene.vertices,
      getPosition: (v: MeasureScene['vertices'][number]) => [v.lon, v.lat],
      getRadius: 5,
      radiusUnits: 'pixels',
      getFillColor: rgba('#ffd400'),
      getLineColor: [0, 0, 0, 255],
      stroked: true,
      lineWidthUnits: 'pixels',
      getLineWidth: 1.5,
      parameters: { depthCompare: 'always' },
    }),
    new TextLayer({
      id: 'measure-labels',
      data: scene.labels,
      getPosition: (l: MeasureScene['labels'][number]) => [l.position.lon, l.position.lat],
      getText: (l: MeasureScene['labels'][number]) => l.text,
      getSize: 13,
      getColor: [255, 255, 255, 255],
      background: true,
      getBackgroundColor: [17, 20, 24, 210],
      backgroundPadding: [6, 3],
      getPixelOffset: [0, -14],
      fontFamily: 'system-ui, sans-serif',
      fontWeight: 600,
      characterSet: 'auto',
      parameters: { depthCompare: 'always' },
    }),
  ];
}
