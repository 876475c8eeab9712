import {
  type GeodeticPosition,
  MEASURE_COLOR,
  type MeasureLabel,
  type MeasureLine,
  type MeasureScene,
  PROFILE_COLOR,
} from './measure.types.js';
import { centroidOf, measurePolygon, measurePolyline, measureSegment } from './measure-geometry.js';
import type { ProjectCrs, ProjectPoint } from './project-crs.js';

/**
 * The measures of a viewer session as plain data, and the scene overlay
 * (lines, vertices, labels) that draws them in either viewer.
 */

/** The measurement tools. */
export const MEASURE_TOOLS = ['distance', 'area', 'height', 'coordinates', 'profile'] as const;
export type MeasureTool = (typeof MEASURE_TOOLS)[number];

/** Vertices a tool needs before it is complete (height and coordinates: one click each). */
export const VERTICES_NEEDED: Record<MeasureTool, number> = {
  distance: 2,
  area: 3,
  height: 1,
  coordinates: 1,
  profile: 2,
};

/** A vertex: where it is on the globe and in the project CRS. */
export interface MeasureVertex {
  geodetic: GeodeticPosition;
  project: ProjectPoint;
  /** What the click hit (the cloud, the globe, the map). */
  source?: 'cloud' | 'globe' | 'map';
}

/** A measure, done or being drawn. */
export interface Measure {
  id: number;
  tool: MeasureTool;
  vertices: MeasureVertex[];
  /** Height tool: the DTM's Z at the vertex (project vertical unit), null off the DTM. */
  groundZ?: number | null;
}

/** Formats metres, square metres and plain numbers for labels (the page's locale). */
export interface MeasureFormat {
  metres(value: number): string;
  squareMetres(value: number): string;
  coordinate(value: number): string;
}

function midpoint(a: MeasureVertex, b: MeasureVertex): GeodeticPosition {
  return {
    lon: (a.geodetic.lon + b.geodetic.lon) / 2,
    lat: (a.geodetic.lat + b.geodetic.lat) / 2,
    height: (a.geodetic.height + b.geodetic.height) / 2,
  };
}

/** The lines and labels of one measure. */
function drawingOf(m: Measure, crs: ProjectCrs, f: MeasureFormat): { lines: MeasureLine[]; labels: MeasureLabel[] } {
  const v = m.vertices;
  const positions = v.map((x) => x.geodetic);
  const labels: MeasureLabel[] = [];
  switch (m.tool) {
    case 'distance': {
      for (let i = 1; i < v.length; i++) {
        const s = measureSegment(v[i - 1]!.project, v[i]!.project, crs.units);
        labels.push({ position: midpoint(v[i - 1]!, v[i]!), text: f.metres(s.distance3d) });
      }
      if (v.length > 2) {
        const total = measurePolyline(
          v.map((x) => x.project),
          crs.units,
        );
        labels.push({ position: positions.at(-1)!, text: `Σ ${f.metres(total.distance3d)}` });
      }
      return { lines: [{ positions, closed: false, color: MEASURE_COLOR }], labels };
    }
    case 'area': {
      if (v.length >= 3) {
        const p = measurePolygon(
          v.map((x) => x.project),
          crs.units,
        );
        const c = centroidOf(v.map((x) => x.project));
        labels.push({ position: crs.toGeodetic(c), text: f.squareMetres(p.area) });
      }
      return { lines: [{ positions, closed: v.length >= 3, color: MEASURE_COLOR }], labels };
    }
    case 'profile':
      if (v.length === 2) {
        const s = measureSegment(v[0]!.project, v[1]!.project, crs.units);
        labels.push({ position: midpoint(v[0]!, v[1]!), text: f.metres(s.horizontal) });
      }
      return { lines: [{ positions, closed: false, color: PROFILE_COLOR }], labels };
    case 'height': {
      const x = v[0];
      if (x && m.groundZ !== undefined && m.groundZ !== null) {
        labels.push({ position: x.geodetic, text: f.metres((x.project.z - m.groundZ) * crs.units.vertical) });
      }
      return { lines: [], labels };
    }
    case 'coordinates': {
      const x = v[0];
      if (x && crs.isProjectCrs) {
        labels.push({
          position: x.geodetic,
          text: `${f.coordinate(x.project.x)} ${f.coordinate(x.project.y)} ${f.coordinate(x.project.z)}`,
        });
      }
      return { lines: [], labels };
    }
  }
}

/**
 * The overlay a viewer draws: every measure's lines, vertices and labels;
 * `active` while a tool waits for clicks.
 */
export function measureSceneOf(
  measures: readonly Measure[],
  crs: ProjectCrs | null,
  active: boolean,
  format: MeasureFormat,
): MeasureScene {
  const scene: MeasureScene = { active, lines: [], vertices: [], labels: [] };
  if (!crs) return scene;
  for (const m of measures) {
    const d = drawingOf(m, crs, format);
    scene.lines.push(...d.lines);
    scene.labels.push(...d.labels);
    scene.vertices.push(...m.vertices.map((x) => x.geodetic));
  }
  return scene;
}
