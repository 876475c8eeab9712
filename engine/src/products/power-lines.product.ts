import path from 'node:path';
import { defineProduct } from '../core/product.js';
import type { CrsInfo } from '../crs/index.js';
import type { Raster } from '../raster/raster.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import { type Conductor, extractPowerLines, type PowerLines, type Tower } from './power-lines.conductors.js';
import {
  type ClassifiedCloud,
  type CrsUnits,
  type DtmValue,
  featuresToWgs84,
  writeWgs84GeoJson,
} from './product-values.js';

/** Figures of the power-line product (job result, PDF report). */
export interface PowerLineFigures {
  conductors: number;
  spans: number;
  towers: number;
  /** Sum of the conductors' 3D lengths, metres. */
  totalLengthM: number;
  /** Lowest conductor height above the terrain model, metres (null without conductors). */
  minClearanceM: number | null;
  maxSagM: number | null;
  medianFitRmseM: number | null;
  maxFitRmseM: number | null;
  wirePoints: number;
  /** Wire returns in no conductor (short or steep pieces: insulators, jumpers, strays). */
  strayWirePoints: number;
  /** Why there is nothing, when there is nothing. */
  message?: string;
}

/** What the power-line product hands on: conductors (project CRS polylines and catenaries) and towers. */
export interface PowerLinesValue extends PowerLines {
  crs: CrsInfo;
  units: CrsUnits;
  /** The terrain model the heights were measured against. */
  dtm: Raster;
  figures: PowerLineFigures;
}

const r2 = (v: number) => Math.round(v * 100) / 100;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** Figures of extracted power lines. */
export function powerLineFigures(lines: PowerLines): PowerLineFigures {
  const c = lines.conductors;
  const rmse = c.map((k) => k.fitRmse).sort((a, b) => a - b);
  const clearances = c.map((k) => k.minHeightAboveGround).filter((v): v is number => v !== null);
  return {
    conductors: c.length,
    spans: lines.spans,
    towers: lines.towers.length,
    totalLengthM: r2(c.reduce((s, k) => s + k.length, 0)),
    minClearanceM: clearances.length ? r2(Math.min(...clearances)) : null,
    maxSagM: c.length ? r3(Math.max(...c.map((k) => k.sag))) : null,
    medianFitRmseM: rmse.length ? r3(rmse[Math.floor(rmse.length / 2)]!) : null,
    maxFitRmseM: rmse.length ? r3(rmse.at(-1)!) : null,
    wirePoints: lines.wirePoints,
    strayWirePoints: lines.strayWirePoints,
    ...(c.length === 0
      ? {
          message:
            lines.wirePoints === 0
              ? 'no wire returns (class 14) in the cloud: no power lines'
              : `${lines.wirePoints} wire returns (class 14) but no conductor span among them`,
        }
      : {}),
  };
}

/**
 * GeoJSON features of power lines (project CRS): one 3D LineString per
 * conductor (the catenary every metre, Z = elevation) and one 3D point per
 * tower (Z = its top).
 */
export function* powerLineFeatures(lines: Pick<PowerLines, 'conductors' | 'towers'>): Generator<Feature> {
  for (const c of lines.conductors) yield conductorFeature(c);
  for (const t of lines.towers) yield towerFeature(t);
}

function conductorFeature(c: Conductor): Feature {
  return {
    type: 'Feature',
    geometry: { type: 'LineString', coordinates: c.coordinates },
    properties: {
      kind: 'conductor',
      spanId: c.spanId,
      conductorId: c.conductorId,
      length: r2(c.length),
      minHeightAboveGround: c.minHeightAboveGround === null ? null : r2(c.minHeightAboveGround),
      sag: r3(c.sag),
      fitRmse: r3(c.fitRmse),
      model: c.fit.model,
      catenaryA: c.fit.model === 'catenary' ? Math.round(c.fit.a * 10) / 10 : null,
      points: c.points.length,
      ends: c.ends.join('-'),
    },
  };
}

function towerFeature(t: Tower): Feature {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [t.x, t.y, t.top] },
    properties: {
      kind: 'tower',
      towerId: t.towerId,
      height: Number.isFinite(t.height) ? r2(t.height) : null,
      inferred: t.inferred,
      points: t.points,
    },
  };
}

/**
 * POWER_LINE: conductors per span as 3D catenaries (from the wire returns,
 * class 14) and towers (class 15) as 3D points; heights above the DTM. A cloud
 * without wires gives an empty layer, not an error.
 */
export const powerLinesProduct = defineProduct<PowerLinesValue>({
  ...productEntry('power-lines'),
  needFailed: {
    code: 'NO_GROUND_FOR_POWER_LINES',
    message: 'no terrain model: the power lines need ground points for their heights above ground',
  },
  async run(ctx) {
    const { cloud, units } = ctx.need<ClassifiedCloud>('classify');
    const { dtm, crs } = ctx.need<DtmValue>('dtm');
    const lines = extractPowerLines(cloud, dtm, units, {}, { signal: ctx.signal });
    const figures = powerLineFigures(lines);
    if (figures.message) ctx.log(figures.message);
    const file = path.join(ctx.workDir, 'power-lines.geojson');
    const written = await writeWgs84GeoJson(file, powerLineFeatures(lines), crs);
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(powerLineFeatures(lines), crs),
      value: { ...lines, crs, units, dtm, figures },
      figures: { ...figures },
    };
  },
});
