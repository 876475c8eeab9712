/**
 * A Mapbox Vector Tile 2.1 encoder for one layer, for databases whose PostGIS
 * has no protobuf support (the embedded PGlite build): geometries arrive in
 * tile coordinates already (clipped, scaled, snapped by PostGIS), and are
 * written as ST_AsMVT would: feature ids, every property (numbers, strings,
 * booleans; objects and arrays as JSON text; nulls left out), exterior rings
 * clockwise and holes counter-clockwise in tile space (y down).
 */

type Position = number[];
type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'MultiPoint'; coordinates: Position[] }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'GeometryCollection'; geometries: Geometry[] };

/** One feature in tile coordinates. */
export interface TileFeature {
  id: string | number;
  properties: Record<string, unknown>;
  geometry: Geometry | null;
}

class Writer {
  private buf = new Uint8Array(1024);
  length = 0;

  private room(n: number) {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  varint(v: number): void {
    this.room(10);
    let n = v;
    while (n >= 0x80) {
      this.buf[this.length++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.length++] = n;
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  bytes(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(data.length);
    this.room(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  string(field: number, s: string): void {
    this.bytes(field, new TextEncoder().encode(s));
  }

  double(field: number, v: number): void {
    this.tag(field, 1);
    this.room(8);
    new DataView(this.buf.buffer).setFloat64(this.length, v, true);
    this.length += 8;
  }

  packed(field: number, values: readonly number[]): void {
    const w = new Writer();
    for (const v of values) w.varint(v);
    this.bytes(field, w.done());
  }

  done(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const command = (id: number, count: number) => (id & 7) | (count << 3);

/** Signed area in tile space (y down): positive for a clockwise ring. */
function ringArea(ring: Position[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return a / 2;
}

/** Whole-unit positions with consecutive duplicates dropped. */
function clean(line: Position[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const p of line) {
    const q: [number, number] = [Math.round(p[0]!), Math.round(p[1]!)];
    const last = out[out.length - 1];
    if (!last || last[0] !== q[0] || last[1] !== q[1]) out.push(q);
  }
  return out;
}

/** The MVT type and command list of a geometry, or null when nothing drawable is left. */
function encodeGeometry(g: Geometry): { type: number; commands: number[] } | null {
  const commands: number[] = [];
  let x = 0;
  let y = 0;
  const moveTo = (p: [number, number]) => {
    commands.push(command(1, 1), zigzag(p[0] - x), zigzag(p[1] - y));
    [x, y] = p;
  };
  const lineTo = (ps: Array<[number, number]>) => {
    commands.push(command(2, ps.length));
    for (const p of ps) {
      commands.push(zigzag(p[0] - x), zigzag(p[1] - y));
      [x, y] = p;
    }
  };
  switch (g.type) {
    case 'Point':
    case 'MultiPoint': {
      const points = clean(g.type === 'Point' ? [g.coordinates] : g.coordinates);
      if (points.length === 0) return null;
      commands.push(command(1, points.length));
      for (const p of points) {
        commands.push(zigzag(p[0] - x), zigzag(p[1] - y));
        [x, y] = p;
      }
      return { type: 1, commands };
    }
    case 'LineString':
    case 'MultiLineString': {
      for (const line of g.type === 'LineString' ? [g.coordinates] : g.coordinates) {
        const ps = clean(line);
        if (ps.length < 2) continue;
        // A closed line with no area (there and back along one line) is dropped, as ST_AsMVTGeom drops it.
        const last = ps[ps.length - 1]!;
        if (ps[0]![0] === last[0] && ps[0]![1] === last[1] && ringArea(ps) === 0) continue;
        moveTo(ps[0]!);
        lineTo(ps.slice(1));
      }
      return commands.length ? { type: 2, commands } : null;
    }
    case 'Polygon':
    case 'MultiPolygon': {
      for (const polygon of g.type === 'Polygon' ? [g.coordinates] : g.coordinates) {
        polygon.forEach((ring, i) => {
          let ps = clean(ring);
          if (ps.length > 1 && ps[0]![0] === ps[ps.length - 1]![0] && ps[0]![1] === ps[ps.length - 1]![1]) ps.pop();
          if (ps.length < 3) return;
          const area = ringArea(ps);
          if (area === 0) return;
          // Exterior rings clockwise (positive area), holes counter-clockwise.
          if ((i === 0) !== area > 0) ps = ps.reverse();
          moveTo(ps[0]!);
          lineTo(ps.slice(1));
          commands.push(command(7, 1));
        });
      }
      return commands.length ? { type: 3, commands } : null;
    }
    case 'GeometryCollection': {
      // ST_AsMVTGeom keeps the parts of the collection's highest dimension.
      for (const type of ['Polygon', 'LineString', 'Point']) {
        const parts = g.geometries.filter((p) => p.type === type || p.type === `Multi${type}`);
        if (parts.length === 0) continue;
        const coordinates = (p: Geometry) => (p as { coordinates: unknown }).coordinates;
        const merged = parts.flatMap((p) =>
          p.type.startsWith('Multi') ? (coordinates(p) as unknown[]) : [coordinates(p)],
        );
        return encodeGeometry({ type: `Multi${type}`, coordinates: merged } as Geometry);
      }
      return null;
    }
  }
}

/**
 * Encodes one layer of a vector tile (extent in tile units, 4096 as PostGIS
 * uses); an empty buffer when no feature has anything left to draw.
 */
export function encodeMvt(layerName: string, features: readonly TileFeature[], extent = 4096): Uint8Array {
  const keys = new Map<string, number>();
  const values = new Map<string, number>();
  const valueBytes: Uint8Array[] = [];
  const featureBytes: Uint8Array[] = [];
  const keyIndex = (k: string) => {
    let i = keys.get(k);
    if (i === undefined) {
      i = keys.size;
      keys.set(k, i);
    }
    return i;
  };
  const valueIndex = (v: string | number | boolean) => {
    const id = `${typeof v}:${String(v)}`;
    let i = values.get(id);
    if (i === undefined) {
      i = values.size;
      values.set(id, i);
      const w = new Writer();
      if (typeof v === 'string') w.string(1, v);
      else if (typeof v === 'boolean') {
        w.tag(7, 0);
        w.varint(v ? 1 : 0);
      } else if (Number.isSafeInteger(v)) {
        w.tag(6, 0);
        w.varint(zigzag(v));
      } else w.double(3, v);
      valueBytes.push(w.done());
    }
    return i;
  };
  for (const f of features) {
    if (!f.geometry) continue;
    const g = encodeGeometry(f.geometry);
    if (!g) continue;
    const tags: number[] = [];
    for (const [k, raw] of Object.entries(f.properties)) {
      if (raw === null || raw === undefined) continue;
      const v =
        typeof raw === 'string' || typeof raw === 'boolean' || (typeof raw === 'number' && Number.isFinite(raw))
          ? raw
          : JSON.stringify(raw);
      tags.push(keyIndex(k), valueIndex(v));
    }
    const w = new Writer();
    const id = Number(f.id);
    if (Number.isSafeInteger(id) && id >= 0) {
      w.tag(1, 0);
      w.varint(id);
    }
    if (tags.length) w.packed(2, tags);
    w.tag(3, 0);
    w.varint(g.type);
    w.packed(4, g.commands);
    featureBytes.push(w.done());
  }
  if (featureBytes.length === 0) return new Uint8Array(0);
  const layer = new Writer();
  layer.tag(15, 0);
  layer.varint(2);
  layer.string(1, layerName);
  for (const f of featureBytes) layer.bytes(2, f);
  for (const k of keys.keys()) layer.string(3, k);
  for (const v of valueBytes) layer.bytes(4, v);
  layer.tag(5, 0);
  layer.varint(extent);
  const tile = new Writer();
  tile.bytes(3, layer.done());
  return tile.done();
}
