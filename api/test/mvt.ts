/**
 * A small Mapbox Vector Tile (protobuf) reader for tests: layers, features
 * with ids, properties and decoded geometry (tile coordinates), enough to
 * check what ST_AsMVT wrote without a vector-tile library.
 */

export interface MvtFeature {
  id: number | null;
  /** 1 point, 2 line string, 3 polygon. */
  type: number;
  properties: Record<string, string | number | boolean>;
  /** Rings or lines of [x, y] in tile units (0..extent). */
  geometry: Array<Array<[number, number]>>;
}

export interface MvtLayer {
  name: string;
  extent: number;
  version: number;
  features: MvtFeature[];
}

class Reader {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    readonly end = buf.length,
  ) {}

  varint(): number {
    let result = 0;
    let shift = 1;
    for (;;) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
  }

  /** Calls `field(tag, wireType, reader)` for every field up to `end`. */
  fields(field: (tag: number, wire: number) => void): void {
    while (this.pos < this.end) {
      const key = this.varint();
      const before = this.pos;
      field(Math.floor(key / 8), key & 7);
      if (this.pos === before) this.skip(key & 7);
    }
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.pos += this.varint();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unknown wire type ${wire}`);
  }

  sub(): Reader {
    const len = this.varint();
    const r = new Reader(this.buf, this.pos + len);
    r.pos = this.pos;
    this.pos += len;
    return r;
  }

  string(): string {
    const r = this.sub();
    return new TextDecoder().decode(this.buf.subarray(r.pos, r.end));
  }

  packed(): number[] {
    const r = this.sub();
    const out: number[] = [];
    while (r.pos < r.end) out.push(r.varint());
    return out;
  }
}

const zigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

function value(r: Reader): string | number | boolean {
  let v: string | number | boolean = '';
  r.fields((tag) => {
    const view = new DataView(r.buf.buffer, r.buf.byteOffset);
    if (tag === 1) v = r.string();
    else if (tag === 2) {
      v = view.getFloat32(r.pos, true);
      r.pos += 4;
    } else if (tag === 3) {
      v = view.getFloat64(r.pos, true);
      r.pos += 8;
    } else if (tag === 4 || tag === 5) v = r.varint();
    else if (tag === 6) v = zigzag(r.varint());
    else if (tag === 7) v = r.varint() !== 0;
  });
  return v;
}

function geometry(commands: number[]): Array<Array<[number, number]>> {
  const parts: Array<Array<[number, number]>> = [];
  let x = 0;
  let y = 0;
  let i = 0;
  let current: Array<[number, number]> | null = null;
  while (i < commands.length) {
    const c = commands[i++]!;
    const id = c & 7;
    const count = c >> 3;
    if (id === 7) {
      if (current?.[0]) current.push([...current[0]]);
      continue;
    }
    for (let k = 0; k < count; k++) {
      x += zigzag(commands[i++]!);
      y += zigzag(commands[i++]!);
      if (id === 1) {
        current = [];
        parts.push(current);
      }
      current!.push([x, y]);
    }
  }
  return parts;
}

/** Decodes a whole tile. */
export function decodeMvt(bytes: Uint8Array): MvtLayer[] {
  const layers: MvtLayer[] = [];
  const tile = new Reader(bytes);
  tile.fields((tag) => {
    if (tag !== 3) return;
    const r = tile.sub();
    const layer: MvtLayer = { name: '', extent: 4096, version: 1, features: [] };
    const keys: string[] = [];
    const values: Array<string | number | boolean> = [];
    const raw: Array<{ id: number | null; type: number; tags: number[]; geometry: number[] }> = [];
    r.fields((t) => {
      if (t === 1) layer.name = r.string();
      else if (t === 15) layer.version = r.varint();
      else if (t === 5) layer.extent = r.varint();
      else if (t === 3) keys.push(r.string());
      else if (t === 4) values.push(value(r.sub()));
      else if (t === 2) {
        const f = r.sub();
        const feature = { id: null as number | null, type: 0, tags: [] as number[], geometry: [] as number[] };
        f.fields((ft) => {
          if (ft === 1) feature.id = f.varint();
          else if (ft === 2) feature.tags = f.packed();
          else if (ft === 3) feature.type = f.varint();
          else if (ft === 4) feature.geometry = f.packed();
        });
        raw.push(feature);
      }
    });
    for (const f of raw) {
      const properties: Record<string, string | number | boolean> = {};
      for (let k = 0; k + 1 < f.tags.length; k += 2) properties[keys[f.tags[k]!]!] = values[f.tags[k + 1]!]!;
      layer.features.push({ id: f.id, type: f.type, properties, geometry: geometry(f.geometry) });
    }
    layers.push(layer);
  });
  return layers;
}

/** The WebMercatorQuad tile holding a longitude/latitude at zoom z. */
export function tileOf(lon: number, lat: number, z: number): { x: number; y: number } {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const s = Math.sin((lat * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  return { x, y };
}

/** Longitude/latitude bounds (west, south, east, north) of a tile. */
export function tileBounds(z: number, x: number, y: number): [number, number, number, number] {
  const n = 2 ** z;
  const lon = (i: number) => (i / n) * 360 - 180;
  const lat = (j: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * j) / n))) * 180) / Math.PI;
  return [lon(x), lat(y + 1), lon(x + 1), lat(y)];
}
