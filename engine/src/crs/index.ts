/**
 * Coordinate reference systems: resolved from a LAS file's GeoTIFF keys
 * (VLR 34735 + 34736/34737), its OGC WKT (VLR 2112) or an EPSG override, and
 * turned into proj4 definitions offline with the `epsg-index` package.
 */
import { createRequire } from 'node:module';
import proj4 from 'proj4';
import { CrsRequired, InvalidInput } from '../core/errors.js';
import type { LasHeader, LasVlr } from '../readers/las-header.js';
import { readCString } from '../readers/las-header.js';
import { parseWkt, type WktNode, wktDatumText, wktEpsg, wktLinearUnit, wktParts } from './wkt.js';

const require = createRequire(import.meta.url);

/** A resolved CRS. Units are metres per unit of the file's coordinates. */
export interface CrsInfo {
  /** EPSG code of the horizontal CRS, null when only a WKT without a known code is available. */
  epsg: number | null;
  wkt: string | null;
  /** Definition proj4 accepts (a proj4 string; the WKT itself when no EPSG match exists). */
  proj4: string;
  name: string;
  /** Metres per horizontal unit (1 for metres, 0.3048 for feet, 1200/3937 for US survey feet); 0 for geographic CRSs. */
  horizontalUnitToMetre: number;
  /** Metres per unit of Z. */
  verticalUnitToMetre: number;
  source: 'geokeys' | 'wkt' | 'override';
  /** EPSG code of the vertical CRS when the file names one. */
  verticalEpsg?: number | null;
  /** Latitude/longitude CRS (degrees). */
  geographic?: boolean;
}

interface EpsgEntry {
  code: string;
  kind: string;
  name: string;
  wkt: string | null;
  proj4: string | null;
}

const US_SURVEY_FOOT = 1200 / 3937;
const UNIT_CODES: Record<number, number> = {
  9001: 1,
  9002: 0.3048,
  9003: US_SURVEY_FOOT,
  9030: 1852,
  9036: 1000,
  9005: 0.3047997333333333,
};

function loadEpsg(code: number): EpsgEntry | null {
  if (!Number.isInteger(code) || code <= 0 || code > 10_000_000) return null;
  try {
    return require(`epsg-index/s/${code}.json`) as EpsgEntry;
  } catch {
    return null;
  }
}

/** Metres per unit read from a proj4 string. */
function proj4Unit(def: string): number {
  if (/\+proj=(longlat|latlong|lonlat|latlon)\b/.test(def)) return 0;
  const toMeter = /\+to_meter=([-+.\deE]+)/.exec(def);
  if (toMeter) return Number(toMeter[1]);
  const units = /\+units=([\w-]+)/.exec(def)?.[1] ?? 'm';
  return { m: 1, ft: 0.3048, 'us-ft': US_SURVEY_FOOT, km: 1000, 'ind-ft': 0.30479841 }[units] ?? 1;
}

/**
 * CRS of an EPSG code, from the offline epsg-index.
 * @throws InvalidInput when the code is unknown or has no proj4 definition.
 */
export function crsFromEpsg(epsg: number, source: CrsInfo['source'] = 'override'): CrsInfo {
  const entry = loadEpsg(epsg);
  if (!entry?.proj4)
    throw new InvalidInput('epsg', `unknown EPSG code ${epsg} (not a coordinate reference system in the EPSG index)`);
  if (!entry.kind.startsWith('CRS-'))
    throw new InvalidInput('epsg', `EPSG:${epsg} is a ${entry.kind}, not a coordinate reference system`);
  const unit = proj4Unit(entry.proj4);
  const geographic = unit === 0;
  return {
    epsg,
    wkt: entry.wkt,
    proj4: entry.proj4,
    name: entry.name,
    horizontalUnitToMetre: unit,
    verticalUnitToMetre: geographic ? 1 : unit,
    source,
    verticalEpsg: null,
    geographic,
  };
}

let allEpsg: Record<string, EpsgEntry> | null = null;

function proj4Params(def: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of def.matchAll(/\+(\w+)(?:=(\S+))?/g)) map.set(m[1]!, m[2] ?? '');
  return map;
}

const DATUM_TOKENS = ['HARN', '2011', 'CSRS', 'NSRS2007', 'CORS96', 'MA11', 'PA11', 'NAD83(CSRS)'];

/**
 * Finds the EPSG projected CRS equal to a definition: same projection,
 * origin and unit, and the same position (within 0.5 m) of a probe point;
 * ties between datum realisations (NAD83, NAD83(HARN), NAD83(2011)...) are
 * broken by the datum names given. Returns null when none or several match.
 */
export function matchEpsg(def: string, probe: [number, number], datumText: string): number | null {
  const params = proj4Params(def);
  const proj = params.get('proj');
  const unit = proj4Unit(def);
  if (!proj || unit === 0) return null;
  const anyProjection = proj === 'unknown';
  allEpsg ??= require('epsg-index/all.json') as Record<string, EpsgEntry>;
  let target: [number, number];
  try {
    target = proj4(def, 'EPSG:4326').forward(probe) as [number, number];
  } catch {
    return null;
  }
  const candidates: EpsgEntry[] = [];
  for (const entry of Object.values(allEpsg)) {
    if (entry.kind !== 'CRS-PROJCRS' || !entry.proj4) continue;
    if (!anyProjection && !entry.proj4.includes(`+proj=${proj} `)) continue;
    if (Math.abs(proj4Unit(entry.proj4) - unit) > 1e-9) continue;
    const p = proj4Params(entry.proj4);
    if (Math.abs(Number(p.get('lon_0') ?? 0) - Number(params.get('lon_0') ?? 0)) > 1e-6) continue;
    if (Math.abs(Number(p.get('lat_0') ?? 0) - Number(params.get('lat_0') ?? 0)) > 1e-6) continue;
    try {
      const got = proj4(entry.proj4, 'EPSG:4326').forward(probe) as [number, number];
      // ~0.5 m in degrees
      if (Math.abs(got[0] - target[0]) < 5e-6 && Math.abs(got[1] - target[1]) < 5e-6) candidates.push(entry);
    } catch {
      // unusable candidate definition
    }
  }
  const text = datumText.toUpperCase();
  const tokens = DATUM_TOKENS.filter((t) => text.includes(t));
  const preferred = candidates.filter((c) => {
    const prefix = c.name.split(' / ')[0]!;
    if (tokens.length === 0) return !prefix.includes('(');
    return tokens.some((t) => prefix.includes(`(${t})`));
  });
  const pick = preferred.length === 1 ? preferred : candidates.length === 1 ? candidates : [];
  return pick.length === 1 ? Number(pick[0]!.code) : null;
}

interface GeoKeys {
  keys: Map<number, number | string | number[]>;
}

function parseGeoKeys(header: Pick<LasHeader, 'vlrs'>): GeoKeys | null {
  const dir = header.vlrs.find((v) => v.userId === 'LASF_Projection' && v.recordId === 34735)?.data;
  if (!dir || dir.byteLength < 8) return null;
  const doubles = header.vlrs.find((v) => v.userId === 'LASF_Projection' && v.recordId === 34736)?.data;
  const ascii = header.vlrs.find((v) => v.userId === 'LASF_Projection' && v.recordId === 34737)?.data;
  const dv = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const count = dv.getUint16(6, true);
  const keys = new Map<number, number | string | number[]>();
  for (let i = 0; i < count && 8 + i * 8 + 8 <= dir.byteLength; i++) {
    const at = 8 + i * 8;
    const id = dv.getUint16(at, true);
    const location = dv.getUint16(at + 2, true);
    const n = dv.getUint16(at + 4, true);
    const value = dv.getUint16(at + 6, true);
    if (location === 0) keys.set(id, value);
    else if (location === 34736 && doubles) {
      const dd = new DataView(doubles.buffer, doubles.byteOffset, doubles.byteLength);
      const values: number[] = [];
      for (let k = 0; k < n && (value + k) * 8 + 8 <= doubles.byteLength; k++)
        values.push(dd.getFloat64((value + k) * 8, true));
      keys.set(id, values);
    } else if (location === 34737 && ascii) {
      keys.set(id, readCString(ascii, value, n).replace(/\|$/, ''));
    }
  }
  return { keys };
}

function wktText(vlr: LasVlr | undefined): string | null {
  if (!vlr?.data) return null;
  const text = readCString(vlr.data, 0, vlr.data.byteLength);
  return text.replace(/\0/g, '').trim() || null;
}

function crsFromWkt(wkt: string, probe: [number, number]): CrsInfo | null {
  const root = parseWkt(wkt);
  if (!root) return null;
  const { horizontal, vertical } = wktParts(root);
  if (!horizontal) return null;
  const verticalUnit = vertical ? wktLinearUnit(vertical) : null;
  const verticalEpsg = vertical ? wktEpsg(vertical) : null;
  const code = wktEpsg(horizontal);
  const known = code !== null ? loadEpsg(code) : null;
  if (known?.proj4) {
    const info = crsFromEpsg(code!, 'wkt');
    const unit = wktLinearUnit(horizontal) ?? info.horizontalUnitToMetre;
    return {
      ...info,
      wkt,
      verticalUnitToMetre: verticalUnit ?? info.verticalUnitToMetre,
      verticalEpsg,
      horizontalUnitToMetre: info.geographic ? 0 : unit,
    };
  }
  let def: string = wkt;
  const geographic = horizontal.keyword.startsWith('GEOG');
  const unit = geographic ? 0 : (wktLinearUnit(horizontal) ?? 1);
  try {
    proj4(horizontal === root ? wkt : serialize(horizontal), 'EPSG:4326');
    if (horizontal !== root) def = serialize(horizontal);
  } catch {
    return null;
  }
  const epsg = geographic ? null : matchEpsg(proj4DefOf(def), probe, wktDatumText(horizontal));
  const matched = epsg !== null ? crsFromEpsg(epsg, 'wkt') : null;
  return {
    epsg,
    wkt,
    proj4: matched?.proj4 ?? def,
    name: matched?.name ?? String(horizontal.args[0] ?? 'unnamed CRS'),
    horizontalUnitToMetre: unit,
    verticalUnitToMetre: verticalUnit ?? (geographic ? 1 : unit),
    source: 'wkt',
    verticalEpsg,
    geographic,
  };
}

function serialize(node: WktNode): string {
  const args = node.args.map((a) =>
    typeof a === 'string' ? JSON.stringify(a) : typeof a === 'number' ? String(a) : serialize(a),
  );
  return `${node.keyword}[${args.join(',')}]`;
}

/** WKT projection names (lower case, prefix) to proj4 short names. */
const WKT_PROJECTIONS: Array<[string, string]> = [
  ['lambert_conformal_conic', 'lcc'],
  ['lambert conic conformal', 'lcc'],
  ['transverse_mercator', 'tmerc'],
  ['transverse mercator', 'tmerc'],
  ['albers', 'aea'],
  ['oblique_stereographic', 'sterea'],
  ['polar_stereographic', 'stere'],
  ['hotine_oblique_mercator', 'omerc'],
  ['mercator', 'merc'],
  ['lambert_azimuthal_equal_area', 'laea'],
  ['cassini', 'cass'],
  ['equirectangular', 'eqc'],
];

/** A proj4 string for a definition proj4 accepts (WKT is converted through proj4's parser). */
function proj4DefOf(def: string): string {
  if (def.startsWith('+')) return def;
  const p = proj4.Proj(def) as unknown as Record<string, unknown>;
  const deg = (v: unknown) => (typeof v === 'number' ? (v * 180) / Math.PI : undefined);
  const name = String(p.projName ?? '').toLowerCase();
  const short =
    WKT_PROJECTIONS.find(([pattern]) => name.startsWith(pattern))?.[1] ?? (name.length <= 8 ? name : 'unknown');
  const parts = [`+proj=${short}`];
  const add = (k: string, v: unknown) => {
    if (v !== undefined && v !== null && !Number.isNaN(v)) parts.push(`+${k}=${v}`);
  };
  add('lat_0', deg(p.lat0));
  add('lon_0', deg(p.long0));
  add('lat_1', deg(p.lat1));
  add('lat_2', deg(p.lat2));
  add('k_0', p.k0);
  add('x_0', p.x0);
  add('y_0', p.y0);
  add('a', p.a);
  add('rf', p.rf);
  add('to_meter', p.to_meter);
  return parts.join(' ');
}

function crsFromGeoKeys(header: LasHeader, probe: [number, number]): CrsInfo | null {
  const geo = parseGeoKeys(header);
  if (!geo) return null;
  const { keys } = geo;
  const model = keys.get(1024);
  const projected = keys.get(3072);
  const geographicCode = keys.get(2048);
  let code: number | null = null;
  if (typeof projected === 'number' && projected > 0 && projected !== 32767) code = projected;
  else if (
    (model === 2 || projected === undefined) &&
    typeof geographicCode === 'number' &&
    geographicCode > 0 &&
    geographicCode !== 32767
  )
    code = geographicCode;
  if (code === null) return null;
  const base = loadEpsg(code);
  if (!base?.proj4) return null;
  let info = crsFromEpsg(code, 'geokeys');
  const linearKey = keys.get(3076);
  const keyUnit = typeof linearKey === 'number' ? UNIT_CODES[linearKey] : undefined;
  if (!info.geographic && keyUnit !== undefined && Math.abs(keyUnit - info.horizontalUnitToMetre) > 1e-9) {
    // The unit keys contradict the code (mvk-thin: EPSG:26995 in metres, keys in US feet).
    // Rule: the unit keys describe the stored numbers, so they win. The definition is the
    // code's projection with the key's unit; the EPSG code reported is the matching
    // feet/metre variant in the index (EPSG:2255 for mvk-thin), or null when none matches.
    const unitName = keyUnit === 1 ? 'm' : keyUnit === 0.3048 ? 'ft' : keyUnit === US_SURVEY_FOOT ? 'us-ft' : null;
    const def = unitName
      ? base.proj4.replace(/\+units=[\w-]+/, `+units=${unitName}`)
      : `${base.proj4.replace(/\+units=[\w-]+/, '')} +to_meter=${keyUnit}`;
    const prefix = base.name.split(' / ')[0] ?? '';
    const epsg = matchEpsg(def, probe, prefix);
    info =
      epsg !== null
        ? crsFromEpsg(epsg, 'geokeys')
        : {
            ...info,
            epsg: null,
            proj4: def,
            name: `${base.name} (${unitName ?? keyUnit} per unit keys)`,
            horizontalUnitToMetre: keyUnit,
            verticalUnitToMetre: keyUnit,
          };
  }
  const verticalUnitKey = keys.get(4099);
  const verticalUnit = typeof verticalUnitKey === 'number' ? UNIT_CODES[verticalUnitKey] : undefined;
  const verticalCode = keys.get(4096);
  return {
    ...info,
    verticalUnitToMetre: verticalUnit ?? (info.geographic ? 1 : info.horizontalUnitToMetre),
    verticalEpsg: typeof verticalCode === 'number' && verticalCode !== 32767 ? verticalCode : null,
  };
}

/**
 * Resolves the CRS of a LAS file. Order: an EPSG override; the WKT VLR when
 * the global-encoding WKT bit is set (LAS 1.4 rule); the GeoTIFF keys when they
 * name an EPSG code; any non-empty WKT VLR (LASF_Projection/2112, then the
 * liblas/2112 copy). An empty WKT (warsaw_small) or no record at all gives null.
 * Vertical unit: the vertical unit key / WKT vertical unit when present, else
 * the horizontal unit (feet files store heights in feet).
 */
export function resolveCrs(header: LasHeader, override?: number): CrsInfo | null {
  if (override !== undefined) {
    if (!Number.isInteger(override) || override <= 0)
      throw new InvalidInput('epsg', `"${override}" is not an EPSG code`);
    return crsFromEpsg(override, 'override');
  }
  const probe: [number, number] = [(header.min[0] + header.max[0]) / 2, (header.min[1] + header.max[1]) / 2];
  const wkt = wktText(header.vlrs.find((v) => v.userId === 'LASF_Projection' && v.recordId === 2112));
  const wktBit = (header.globalEncoding & 16) !== 0;
  if (wktBit && wkt) {
    const fromWkt = crsFromWkt(wkt, probe);
    if (fromWkt) return fromWkt;
  }
  const fromKeys = crsFromGeoKeys(header, probe);
  if (fromKeys) return fromKeys;
  for (const text of [wkt, wktText(header.vlrs.find((v) => v.userId === 'liblas' && v.recordId === 2112))]) {
    if (!text) continue;
    const fromWkt = crsFromWkt(text, probe);
    if (fromWkt) return fromWkt;
  }
  return null;
}

/** In-place transformer of coordinate columns. */
export interface CoordinateTransformer {
  /** Transforms the first `count` points in place; for EPSG:4978, Z is converted to metres first. */
  forward(x: Float64Array, y: Float64Array, z: Float64Array, count: number): void;
}

const TARGETS: Record<string, string> = {
  'EPSG:4326': '+proj=longlat +datum=WGS84 +no_defs',
  'EPSG:4978': '+proj=geocent +datum=WGS84 +units=m +no_defs',
};

/**
 * Reprojects chunks to WGS84 longitude/latitude (EPSG:4326, Z kept in file
 * units), to ECEF (EPSG:4978, metres) or to another CRS. Heights are
 * converted with `verticalUnitToMetre` and used as ellipsoidal heights (no
 * geoid model offline: orthometric heights are off by the local geoid
 * undulation, tens of metres at most).
 */
export function createTransformer(
  from: CrsInfo | null,
  to: 'EPSG:4326' | 'EPSG:4978' | CrsInfo,
): CoordinateTransformer {
  if (!from) throw new CrsRequired();
  const target = typeof to === 'string' ? TARGETS[to]! : to.proj4;
  const converter = proj4(from.proj4, target);
  const zToMetre = to === 'EPSG:4978' ? from.verticalUnitToMetre : 1;
  const zScale = typeof to === 'object' ? from.verticalUnitToMetre / to.verticalUnitToMetre : 1;
  return {
    forward(x, y, z, count) {
      const point = [0, 0, 0];
      for (let i = 0; i < count; i++) {
        point[0] = x[i]!;
        point[1] = y[i]!;
        point[2] = z[i]! * zToMetre;
        const out = converter.forward(point) as number[];
        x[i] = out[0]!;
        y[i] = out[1]!;
        z[i] = to === 'EPSG:4978' ? out[2]! : z[i]! * zScale;
      }
    },
  };
}
