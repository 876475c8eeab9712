/**
 * ASCII DXF writer, AutoCAD 2000 (AC1015), in the project CRS: what GDAL's
 * DXF driver (QGIS), LibreCAD and AutoCAD-family tools read.
 *
 * The document has a HEADER ($ACADVER, $HANDSEED, $INSUNITS, $EXTMIN/$EXTMAX),
 * CLASSES (empty), TABLES (VPORT, LTYPE with CONTINUOUS, LAYER with one named,
 * coloured layer per product, STYLE "Standard", VIEW, UCS, APPID, DIMSTYLE,
 * BLOCK_RECORD), BLOCKS (*Model_Space, *Paper_Space), ENTITIES and OBJECTS
 * (the root dictionary). Every object has a handle (group 5, 105 for
 * DIMSTYLE) and its owner's (330); handles are given when the document is
 * written, in order, so the same content always gives the same file.
 *
 * Entities: POINT, TEXT, and polylines: LWPOLYLINE with its elevation (38)
 * when every vertex has the same Z (contours), else a 3D POLYLINE with
 * VERTEX flag 32 (power lines, grid profiles). Closed polylines stand for
 * polygons (buildings, crowns), one per ring.
 *
 * @example
 * const dxf = new DxfDocument();
 * dxf.addLayer('contours', 32);
 * dxf.polyline3d('contours', [[0, 0, 42.5], [10, 0, 42.5]]);
 * dxf.text('contours', 0, 0, 42.5, 0.5, '42.50');
 * await dxf.write('map.dxf');
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { InvalidInput } from '../core/errors.js';
import { digitCount, writeDigits, writeFraction } from './decimal-bytes.js';
import type { Feature } from './geojson.writer.js';

/** Length units of the drawing ($INSUNITS): metres, international feet or US survey feet. */
export type DxfUnits = 'm' | 'ft' | 'us-ft';

const INSUNITS: Record<DxfUnits, number> = { m: 6, ft: 2, 'us-ft': 21 };

/** Options of {@link DxfDocument}. */
export interface DxfDocumentOptions {
  /** Unit of the coordinates (default metres). */
  units?: DxfUnits;
}

/** A layer of the LAYER table. */
export interface DxfLayerInfo {
  name: string;
  /** AutoCAD Color Index, 1–255 (1 red, 2 yellow, 3 green, 4 cyan, 5 blue, 6 magenta, 7 white/black). */
  color: number;
}

type Entity =
  | { kind: 'point'; layer: string; x: number; y: number; z: number }
  | {
      kind: 'text';
      layer: string;
      x: number;
      y: number;
      z: number;
      height: number;
      text: string;
      rotation: number;
    }
  | { kind: 'lwpolyline'; layer: string; xy: Float64Array; elevation: number; closed: boolean }
  | { kind: 'polyline3d'; layer: string; coords: Float64Array; closed: boolean };

/**
 * A layer name every CAD reader takes: Latin-1 letters (the file's code page),
 * other characters and those AutoCAD forbids (`<>/\\":;?*|=\``) as `_`.
 */
export function dxfLayerName(name: string): string {
  const s = name
    .normalize('NFC')
    .replace(/[^\x20-\x7e\xa0-\xff]|[<>/\\":;?*|=`]/g, '_')
    .trim();
  return s || '0';
}

/**
 * A DXF real: at most 6 decimals, no exponent, always with a decimal point.
 * Exported for its test.
 */
export function real(v: number): string {
  if (!Number.isFinite(v)) throw new InvalidInput('dxf', `coordinate ${v} is not a finite number`);
  const k = Math.round(v * 1e6);
  if (Math.abs(k) < 1e15) {
    // Up to 15 digits, k / 1e6 prints as the decimal k·10⁻⁶ itself: written from two integers, which is
    // several times faster than printing the double (most of the time of writing a DXF map).
    const a = Math.abs(k);
    const whole = Math.floor(a / 1e6);
    const fraction = a - whole * 1e6;
    const sign = k < 0 ? '-' : '';
    if (fraction === 0) return `${sign}${whole}.0`;
    return `${sign}${whole}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
  }
  // k / 1e6 prints as the shortest decimal, so at most 6 decimals; exponents only past 1e21.
  const s = String(k / 1e6);
  return s.includes('.') ? s : `${s}.0`;
}

/**
 * Text of a DXF string in the file's code page (ANSI_1252, written as
 * Latin-1 bytes): printable ASCII and Latin-1 letters as they are, other
 * characters as `\U+XXXX` (AutoCAD's escape), control characters dropped,
 * line breaks as spaces.
 */
export function dxfString(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC').replace(/[\r\n]+/g, ' ')) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff)) out += ch;
    else if (code > 0xffff) out += '?';
    else if (code >= 0x7f) out += `\\U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/** Group code lines as written (right-aligned on 3 characters, as AutoCAD writes them), as Latin-1 bytes. */
const CODES: Buffer[] = Array.from({ length: 1072 }, (_, code) =>
  Buffer.from(`${String(code).padStart(3, ' ')}\n`, 'latin1'),
);

/** Bytes of the buffers {@link GroupWriter} fills before it hands them over. */
const CHUNK_BYTES = 1 << 20;

/**
 * Writes group code / value pairs straight into Latin-1 bytes, reals digit by digit (the text of
 * {@link real}): building and joining a string per line was most of the time of writing a DXF map.
 */
class GroupWriter {
  private chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    this.cut();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafe(bytes);
  }

  private code(code: number): void {
    const line = CODES[code] ?? Buffer.from(`${String(code).padStart(3, ' ')}\n`, 'latin1');
    // Byte by byte: a typed-array set() of 4 bytes costs more than the copy.
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < line.length; i++) buf[at++] = line[i]!;
    this.at = at;
  }

  pair(code: number, value: string | number): void {
    const text = String(value);
    this.room(8 + text.length);
    this.code(code);
    this.at += this.buf.write(text, this.at, 'latin1');
    this.buf[this.at++] = 10;
  }

  /** A real as {@link real} prints it. */
  real(code: number, v: number): void {
    if (!Number.isFinite(v)) throw new InvalidInput('dxf', `coordinate ${v} is not a finite number`);
    const k = Math.round(v * 1e6);
    if (!(Math.abs(k) < 1e15)) {
      this.pair(code, real(v));
      return;
    }
    this.room(40);
    this.code(code);
    const buf = this.buf;
    if (k < 0) buf[this.at++] = 45; // -
    const a = Math.abs(k);
    const whole = Math.floor(a / 1e6);
    this.at = writeDigits(buf, this.at, whole, digitCount(whole));
    buf[this.at++] = 46; // .
    const fraction = a - whole * 1e6;
    if (fraction === 0) {
      buf[this.at++] = 48; // 0
    } else {
      this.at = writeFraction(buf, this.at, fraction, 6);
    }
    buf[this.at++] = 10;
  }

  cut(): void {
    if (this.at === 0) return;
    this.chunks.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
    this.at = 0;
  }

  /** Bytes written so far (whole buffers unless `all`), then forgotten. */
  take(all = false): Buffer[] {
    if (all) this.cut();
    const out = this.chunks;
    this.chunks = [];
    return out;
  }
}

/**
 * An AutoCAD 2000 DXF drawing built entity by entity. Coordinates are in the
 * project CRS (easting, northing, height), in {@link DxfDocumentOptions.units}.
 */
export class DxfDocument {
  private readonly layers = new Map<string, DxfLayerInfo>([['0', { name: '0', color: 7 }]]);
  private readonly entities: Entity[] = [];
  private readonly units: DxfUnits;
  private min = [Infinity, Infinity, Infinity];
  private max = [-Infinity, -Infinity, -Infinity];

  constructor(options: DxfDocumentOptions = {}) {
    this.units = options.units ?? 'm';
  }

  /** Entities added so far (a 3D polyline counts once). */
  get entityCount(): number {
    return this.entities.length;
  }

  /** Layers of the LAYER table, `0` first. */
  get layerList(): DxfLayerInfo[] {
    return [...this.layers.values()];
  }

  /**
   * Adds (or recolours) a layer; returns its name as written.
   * @param color AutoCAD Color Index 1–255 (default 7, white on dark, black on light backgrounds).
   */
  addLayer(name: string, color = 7): string {
    const layer = dxfLayerName(name);
    if (!Number.isInteger(color) || color < 1 || color > 255) {
      throw new InvalidInput('dxf', `layer colour ${color} is not an AutoCAD Color Index (1-255)`);
    }
    this.layers.set(layer, { name: layer, color });
    return layer;
  }

  private layerOf(name: string): string {
    const layer = dxfLayerName(name);
    if (!this.layers.has(layer)) this.layers.set(layer, { name: layer, color: 7 });
    return layer;
  }

  private extend(x: number, y: number, z: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      throw new InvalidInput('dxf', `coordinate (${x}, ${y}, ${z}) is not finite`);
    }
    const { min, max } = this;
    if (x < min[0]!) min[0] = x;
    if (x > max[0]!) max[0] = x;
    if (y < min[1]!) min[1] = y;
    if (y > max[1]!) max[1] = y;
    if (z < min[2]!) min[2] = z;
    if (z > max[2]!) max[2] = z;
  }

  /** A POINT. */
  point(layer: string, x: number, y: number, z = 0): void {
    this.extend(x, y, z);
    this.entities.push({ kind: 'point', layer: this.layerOf(layer), x, y, z });
  }

  /**
   * A single-line TEXT whose baseline starts at (x, y, z).
   * @param height Cap height in drawing units.
   * @param rotation Degrees counter-clockwise from east.
   */
  text(layer: string, x: number, y: number, z: number, height: number, text: string, rotation = 0): void {
    if (!(height > 0)) throw new InvalidInput('dxf', `text height ${height} must be positive`);
    this.extend(x, y, z);
    this.entities.push({ kind: 'text', layer: this.layerOf(layer), x, y, z, height, text, rotation });
  }

  /**
   * A polyline through `coords` ([x, y] or [x, y, z]; missing Z is 0). Drawn
   * as an LWPOLYLINE at its elevation when every vertex has the same Z,
   * else as a 3D POLYLINE. `closed` joins the last vertex to the first (a
   * repeated first vertex at the end is dropped).
   */
  polyline3d(layer: string, coords: readonly (readonly number[])[], closed = false): void {
    let n = coords.length;
    if (closed && n > 1) {
      const a = coords[0]!;
      const b = coords[n - 1]!;
      if (a[0] === b[0] && a[1] === b[1] && (a[2] ?? 0) === (b[2] ?? 0)) n--;
    }
    if (n < 2) return;
    const flat = new Float64Array(n * 3);
    let planar = true;
    const z0 = coords[0]![2] ?? 0;
    for (let i = 0; i < n; i++) {
      const c = coords[i]!;
      const z = c[2] ?? 0;
      this.extend(c[0]!, c[1]!, z);
      flat[i * 3] = c[0]!;
      flat[i * 3 + 1] = c[1]!;
      flat[i * 3 + 2] = z;
      if (z !== z0) planar = false;
    }
    const name = this.layerOf(layer);
    if (planar) {
      const xy = new Float64Array(n * 2);
      for (let i = 0; i < n; i++) {
        xy[i * 2] = flat[i * 3]!;
        xy[i * 2 + 1] = flat[i * 3 + 1]!;
      }
      this.entities.push({ kind: 'lwpolyline', layer: name, xy, elevation: z0, closed });
    } else this.entities.push({ kind: 'polyline3d', layer: name, coords: flat, closed });
  }

  /**
   * The polyline {@link polyline3d} draws through `xy` (flat x, y pairs) all at
   * height `z`: an LWPOLYLINE at that elevation, the same entity, without an
   * array per vertex. `xy` is kept, not copied: it must not change before the
   * drawing is written.
   */
  polylineAt(layer: string, xy: Float64Array, z: number, closed = false): void {
    let n = xy.length >> 1;
    if (closed && n > 1 && xy[0] === xy[2 * n - 2] && xy[1] === xy[2 * n - 1]) n--;
    if (n < 2) return;
    for (let i = 0; i < n; i++) this.extend(xy[2 * i]!, xy[2 * i + 1]!, z);
    const name = this.layerOf(layer);
    const kept = n * 2 === xy.length ? xy : xy.subarray(0, n * 2);
    this.entities.push({ kind: 'lwpolyline', layer: name, xy: kept, elevation: z, closed });
  }

  /**
   * The drawing as DXF bytes (Latin-1, the ANSI_1252 code page), chunk by chunk as it is made.
   */
  *chunks(): Generator<Buffer> {
    let next = 1;
    const handle = () => (next++).toString(16).toUpperCase();
    const w = new GroupWriter();

    // TABLES
    w.pair(0, 'SECTION');
    w.pair(2, 'TABLES');
    const table = (name: string, count: number, records: (owner: string) => void, subclass?: string) => {
      const h = handle();
      w.pair(0, 'TABLE');
      w.pair(2, name);
      w.pair(5, h);
      w.pair(330, '0');
      w.pair(100, 'AcDbSymbolTable');
      w.pair(70, count);
      if (subclass) w.pair(100, subclass);
      records(h);
      w.pair(0, 'ENDTAB');
    };
    const record = (type: string, owner: string, subclass: string, handleCode = 5) => {
      w.pair(0, type);
      w.pair(handleCode, handle());
      w.pair(330, owner);
      w.pair(100, 'AcDbSymbolTableRecord');
      w.pair(100, subclass);
    };
    const hasExtent = Number.isFinite(this.min[0]);
    const lo = hasExtent ? this.min : [0, 0, 0];
    const hi = hasExtent ? this.max : [0, 0, 0];
    table('VPORT', 1, (owner) => {
      record('VPORT', owner, 'AcDbViewportTableRecord');
      w.pair(2, '*ACTIVE');
      w.pair(70, 0);
      w.real(10, 0);
      w.real(20, 0);
      w.real(11, 1);
      w.real(21, 1);
      w.real(12, (lo[0]! + hi[0]!) / 2);
      w.real(22, (lo[1]! + hi[1]!) / 2);
      w.real(13, 0);
      w.real(23, 0);
      w.real(14, 1);
      w.real(24, 1);
      w.real(15, 0);
      w.real(25, 0);
      w.real(16, 0);
      w.real(26, 0);
      w.real(36, 1);
      w.real(17, 0);
      w.real(27, 0);
      w.real(37, 0);
      w.real(40, Math.max(1, (hi[1]! - lo[1]!) * 1.1, ((hi[0]! - lo[0]!) * 1.1) / 1.5));
      w.real(41, 1.5);
      w.real(42, 50);
      w.real(43, 0);
      w.real(44, 0);
      w.real(50, 0);
      w.real(51, 0);
      w.pair(71, 0);
      w.pair(72, 100);
      w.pair(73, 1);
      w.pair(74, 3);
      w.pair(75, 0);
      w.pair(76, 0);
      w.pair(77, 0);
      w.pair(78, 0);
    });
    table('LTYPE', 3, (owner) => {
      for (const [name, description] of [
        ['ByBlock', ''],
        ['ByLayer', ''],
        ['Continuous', 'Solid line'],
      ] as const) {
        record('LTYPE', owner, 'AcDbLinetypeTableRecord');
        w.pair(2, name);
        w.pair(70, 0);
        w.pair(3, description);
        w.pair(72, 65);
        w.pair(73, 0);
        w.real(40, 0);
      }
    });
    table('LAYER', this.layers.size, (owner) => {
      for (const layer of this.layers.values()) {
        record('LAYER', owner, 'AcDbLayerTableRecord');
        w.pair(2, layer.name);
        w.pair(70, 0);
        w.pair(62, layer.color);
        w.pair(6, 'Continuous');
        w.pair(370, -3);
      }
    });
    table('STYLE', 1, (owner) => {
      record('STYLE', owner, 'AcDbTextStyleTableRecord');
      w.pair(2, 'Standard');
      w.pair(70, 0);
      w.real(40, 0);
      w.real(41, 1);
      w.real(50, 0);
      w.pair(71, 0);
      w.real(42, 2.5);
      w.pair(3, 'txt');
      w.pair(4, '');
    });
    table('VIEW', 0, () => {});
    table('UCS', 0, () => {});
    table('APPID', 1, (owner) => {
      record('APPID', owner, 'AcDbRegAppTableRecord');
      w.pair(2, 'ACAD');
      w.pair(70, 0);
    });
    table(
      'DIMSTYLE',
      1,
      (owner) => {
        record('DIMSTYLE', owner, 'AcDbDimStyleTableRecord', 105);
        w.pair(2, 'Standard');
        w.pair(70, 0);
      },
      'AcDbDimStyleTable',
    );
    const blockRecords: Record<'model' | 'paper', string> = { model: '', paper: '' };
    table('BLOCK_RECORD', 2, (owner) => {
      for (const [key, name] of [
        ['model', '*Model_Space'],
        ['paper', '*Paper_Space'],
      ] as const) {
        w.pair(0, 'BLOCK_RECORD');
        const h = handle();
        blockRecords[key] = h;
        w.pair(5, h);
        w.pair(330, owner);
        w.pair(100, 'AcDbSymbolTableRecord');
        w.pair(100, 'AcDbBlockTableRecord');
        w.pair(2, name);
      }
    });
    w.pair(0, 'ENDSEC');

    // BLOCKS
    w.pair(0, 'SECTION');
    w.pair(2, 'BLOCKS');
    for (const [key, name] of [
      ['model', '*Model_Space'],
      ['paper', '*Paper_Space'],
    ] as const) {
      const owner = blockRecords[key];
      w.pair(0, 'BLOCK');
      w.pair(5, handle());
      w.pair(330, owner);
      w.pair(100, 'AcDbEntity');
      if (key === 'paper') w.pair(67, 1);
      w.pair(8, '0');
      w.pair(100, 'AcDbBlockBegin');
      w.pair(2, name);
      w.pair(70, 0);
      w.real(10, 0);
      w.real(20, 0);
      w.real(30, 0);
      w.pair(3, name);
      w.pair(1, '');
      w.pair(0, 'ENDBLK');
      w.pair(5, handle());
      w.pair(330, owner);
      w.pair(100, 'AcDbEntity');
      if (key === 'paper') w.pair(67, 1);
      w.pair(8, '0');
      w.pair(100, 'AcDbBlockEnd');
    }
    w.pair(0, 'ENDSEC');

    // Every handle is known before the entities are written: the header's $HANDSEED comes first.
    let entityHandles = 0;
    for (const e of this.entities) entityHandles += e.kind === 'polyline3d' ? 2 + e.coords.length / 3 : 1;
    const seed = (next + entityHandles + 2).toString(16).toUpperCase();
    yield* this.header(seed, lo, hi);
    yield* w.take(true);

    // ENTITIES
    w.pair(0, 'SECTION');
    w.pair(2, 'ENTITIES');
    const space = blockRecords.model;
    const start = (type: string, layer: string, owner = space): string => {
      const h = handle();
      w.pair(0, type);
      w.pair(5, h);
      w.pair(330, owner);
      w.pair(100, 'AcDbEntity');
      w.pair(8, layer);
      return h;
    };
    for (const e of this.entities) {
      if (e.kind === 'point') {
        start('POINT', e.layer);
        w.pair(100, 'AcDbPoint');
        w.real(10, e.x);
        w.real(20, e.y);
        w.real(30, e.z);
      } else if (e.kind === 'text') {
        start('TEXT', e.layer);
        w.pair(100, 'AcDbText');
        w.real(10, e.x);
        w.real(20, e.y);
        w.real(30, e.z);
        w.real(40, e.height);
        w.pair(1, dxfString(e.text));
        if (e.rotation) w.real(50, e.rotation);
        w.pair(7, 'Standard');
        w.pair(100, 'AcDbText');
      } else if (e.kind === 'lwpolyline') {
        start('LWPOLYLINE', e.layer);
        w.pair(100, 'AcDbPolyline');
        const n = e.xy.length / 2;
        w.pair(90, n);
        w.pair(70, e.closed ? 1 : 0);
        if (e.elevation !== 0) w.real(38, e.elevation);
        for (let i = 0; i < n; i++) {
          w.real(10, e.xy[i * 2]!);
          w.real(20, e.xy[i * 2 + 1]!);
        }
      } else {
        const owner = start('POLYLINE', e.layer);
        w.pair(100, 'AcDb3dPolyline');
        w.pair(66, 1);
        w.real(10, 0);
        w.real(20, 0);
        w.real(30, 0);
        w.pair(70, 8 | (e.closed ? 1 : 0));
        const n = e.coords.length / 3;
        for (let i = 0; i < n; i++) {
          start('VERTEX', e.layer, owner);
          w.pair(100, 'AcDbVertex');
          w.pair(100, 'AcDb3dPolylineVertex');
          w.real(10, e.coords[i * 3]!);
          w.real(20, e.coords[i * 3 + 1]!);
          w.real(30, e.coords[i * 3 + 2]!);
          w.pair(70, 32);
        }
        start('SEQEND', e.layer, owner);
      }
      yield* w.take();
    }
    w.pair(0, 'ENDSEC');

    // OBJECTS: the root dictionary and its (empty) group dictionary.
    w.pair(0, 'SECTION');
    w.pair(2, 'OBJECTS');
    const root = handle();
    const groups = handle();
    w.pair(0, 'DICTIONARY');
    w.pair(5, root);
    w.pair(330, '0');
    w.pair(100, 'AcDbDictionary');
    w.pair(281, 1);
    w.pair(3, 'ACAD_GROUP');
    w.pair(350, groups);
    w.pair(0, 'DICTIONARY');
    w.pair(5, groups);
    w.pair(330, root);
    w.pair(100, 'AcDbDictionary');
    w.pair(281, 1);
    w.pair(0, 'ENDSEC');
    w.pair(0, 'EOF');
    yield* w.take(true);
    if (handle() !== seed) throw new Error(`dxf: handle seed ${seed} does not follow the last handle`);
  }

  /** HEADER and CLASSES sections. */
  private *header(seed: string, lo: number[], hi: number[]): Generator<Buffer> {
    const head = new GroupWriter();
    const variable = (name: string, write: () => void) => {
      head.pair(9, name);
      write();
    };
    head.pair(0, 'SECTION');
    head.pair(2, 'HEADER');
    variable('$ACADVER', () => head.pair(1, 'AC1015'));
    variable('$DWGCODEPAGE', () => head.pair(3, 'ANSI_1252'));
    variable('$HANDSEED', () => head.pair(5, seed));
    variable('$INSBASE', () => {
      head.real(10, 0);
      head.real(20, 0);
      head.real(30, 0);
    });
    variable('$EXTMIN', () => {
      head.real(10, lo[0]!);
      head.real(20, lo[1]!);
      head.real(30, lo[2]!);
    });
    variable('$EXTMAX', () => {
      head.real(10, hi[0]!);
      head.real(20, hi[1]!);
      head.real(30, hi[2]!);
    });
    variable('$INSUNITS', () => head.pair(70, INSUNITS[this.units]));
    variable('$MEASUREMENT', () => head.pair(70, this.units === 'm' ? 1 : 0));
    variable('$LUNITS', () => head.pair(70, 2));
    variable('$LUPREC', () => head.pair(70, 3));
    head.pair(0, 'ENDSEC');
    head.pair(0, 'SECTION');
    head.pair(2, 'CLASSES');
    head.pair(0, 'ENDSEC');
    yield* head.take(true);
  }

  /** The whole drawing as DXF text (encode it as Latin-1, the ANSI_1252 code page, to write it). */
  toString(): string {
    return Buffer.concat([...this.chunks()]).toString('latin1');
  }

  /** Writes the drawing to `path`; resolves to its size in bytes. */
  async write(path: string): Promise<number> {
    const out = createWriteStream(path);
    let bytes = 0;
    for (const data of this.chunks()) {
      bytes += data.length;
      if (!out.write(data)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    return bytes;
  }
}

/** One layer of {@link writeDxf}: features in the project CRS. */
export interface DxfFeatureLayer {
  name: string;
  /** AutoCAD Color Index 1–255. */
  color: number;
  features: Iterable<Feature>;
  /** Text written beside each feature (points: at the point; lines: mid vertex; polygons: ring centre). */
  label?: (properties: Feature['properties']) => string | null;
  /** Height of geometries without Z (contours carry theirs in `elevation`); 0 when absent. */
  elevation?: (properties: Feature['properties']) => number | null;
}

/** Options of {@link writeDxf}. */
export interface DxfWriteOptions extends DxfDocumentOptions {
  /** Height of label text in drawing units (default 0.5). */
  textHeight?: number;
}

/** What {@link writeDxf} reports. */
export interface DxfArtifact {
  path: string;
  type: 'dxf';
  bytes: number;
  /** Features written (each polygon ring is one closed polyline). */
  features: number;
  /** Entities written (polylines, points, texts). */
  entities: number;
  layers: DxfLayerInfo[];
}

function labelAnchor(feature: Feature): number[] | null {
  const g = feature.geometry;
  if (g.type === 'Point') return g.coordinates.length >= 2 ? g.coordinates : null;
  if (g.type === 'LineString') return g.coordinates[Math.floor((g.coordinates.length - 1) / 2)] ?? null;
  const ring = g.coordinates[0];
  if (!ring || ring.length === 0) return null;
  const n = ring.length > 1 && ring[0]![0] === ring.at(-1)![0] && ring[0]![1] === ring.at(-1)![1] ? ring.length - 1 : 1;
  const c = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c[k]! += (ring[i]![k] ?? 0) / n;
  return c;
}

/**
 * Adds features to a drawing on one layer: Point → POINT, LineString →
 * polyline, Polygon → one closed polyline per ring, plus an optional TEXT label.
 * Returns the number of features added.
 */
export function addFeatures(doc: DxfDocument, layer: DxfFeatureLayer, textHeight = 0.5): number {
  const name = doc.addLayer(layer.name, layer.color);
  let count = 0;
  for (const f of layer.features) {
    const fallback = layer.elevation?.(f.properties) ?? 0;
    const z = (c: readonly number[]) => (c.length > 2 ? c : [c[0]!, c[1]!, fallback]);
    const g = f.geometry;
    if (g.type === 'Point') {
      if (g.coordinates.length < 2) continue;
      const [x, y, h] = z(g.coordinates);
      doc.point(name, x!, y!, h!);
    } else if (g.type === 'LineString') doc.polyline3d(name, g.coordinates.map(z), false);
    else for (const ring of g.coordinates) doc.polyline3d(name, ring.map(z), true);
    count++;
    const text = layer.label?.(f.properties);
    const anchor = text ? labelAnchor(f) : null;
    if (text && anchor) {
      const [x, y, h] = z(anchor);
      // Beside the point rather than on it, so the mark stays visible.
      doc.text(name, x! + textHeight * 0.5, y! + textHeight * 0.5, h!, textHeight, text);
    }
  }
  return count;
}

/**
 * Writes layers of features (project CRS) to an AutoCAD 2000 DXF file.
 *
 * @example
 * await writeDxf('trees.dxf', [
 *   { name: 'tree_tops', color: 94, features: tops, label: (p) => Number(p.height).toFixed(2) },
 *   { name: 'tree_crowns', color: 3, features: crowns },
 * ]);
 */
export async function writeDxf(
  path: string,
  layers: readonly DxfFeatureLayer[],
  options: DxfWriteOptions = {},
): Promise<DxfArtifact> {
  const doc = new DxfDocument(options);
  let features = 0;
  for (const layer of layers) features += addFeatures(doc, layer, options.textHeight ?? 0.5);
  const bytes = await doc.write(path);
  return { path, type: 'dxf', bytes, features, entities: doc.entityCount, layers: doc.layerList };
}
