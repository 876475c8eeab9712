/**
 * Reads the points of a glTF point content (a 3D Tiles 1.1 tile) in the
 * browser, for the 2D map: ECEF positions (the node's translation and scale
 * applied, glTF y-up turned to z-up as 3D Tiles does), and the per-point
 * attributes the tiler writes (COLOR_0, _CLASSIFICATION, _INTENSITY).
 * Handles float and normalised integer accessors (KHR_mesh_quantization).
 */

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

/** Bytes of each glTF component type. */
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZES: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

/** The points of one content. */
export interface GlbPoints {
  count: number;
  /** ECEF metres, xyz per point. */
  ecef: Float64Array;
  /** sRGB bytes, rgb per point, when the content has colour. */
  rgb?: Uint8Array;
  classification: Uint8Array;
  intensity: Uint16Array;
}

interface Accessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  normalized?: boolean;
  count: number;
  type: string;
}

interface GltfJson {
  accessors: Accessor[];
  bufferViews: Array<{ byteOffset?: number; byteLength: number; byteStride?: number }>;
  meshes: Array<{ primitives: Array<{ attributes: Record<string, number>; mode?: number }> }>;
  nodes: Array<{ mesh?: number; translation?: number[]; scale?: number[]; rotation?: number[]; matrix?: number[] }>;
}

/** An error in a GLB: the viewer skips the tile and says why. */
export class GlbError extends Error {
  override name = 'GlbError';
}

/** Reads an accessor as numbers (normalised integers mapped to -1..1 or 0..1). */
function readAccessor(gltf: GltfJson, bin: DataView, index: number): { values: Float64Array; size: number } {
  const a = gltf.accessors[index];
  if (!a || a.bufferView === undefined) throw new GlbError(`accessor ${index} is missing`);
  const view = gltf.bufferViews[a.bufferView];
  if (!view) throw new GlbError(`bufferView ${a.bufferView} is missing`);
  const size = TYPE_SIZES[a.type];
  const bytes = COMPONENT_BYTES[a.componentType];
  if (!size || !bytes) throw new GlbError(`accessor ${index}: unsupported ${a.type} of component ${a.componentType}`);
  const stride = view.byteStride ?? size * bytes;
  const start = (view.byteOffset ?? 0) + (a.byteOffset ?? 0);
  if (start + (a.count - 1) * stride + size * bytes > bin.byteLength) {
    throw new GlbError(`accessor ${index} runs past the binary chunk`);
  }
  const out = new Float64Array(a.count * size);
  const read: (o: number) => number =
    a.componentType === 5126
      ? (o) => bin.getFloat32(o, true)
      : a.componentType === 5122
        ? (o) => bin.getInt16(o, true)
        : a.componentType === 5123
          ? (o) => bin.getUint16(o, true)
          : a.componentType === 5120
            ? (o) => bin.getInt8(o)
            : a.componentType === 5121
              ? (o) => bin.getUint8(o)
              : (o) => bin.getUint32(o, true);
  const norm =
    a.normalized === true
      ? a.componentType === 5122
        ? (v: number) => Math.max(v / 32767, -1)
        : a.componentType === 5123
          ? (v: number) => v / 65535
          : a.componentType === 5120
            ? (v: number) => Math.max(v / 127, -1)
            : a.componentType === 5121
              ? (v: number) => v / 255
              : (v: number) => v
      : (v: number) => v;
  for (let i = 0; i < a.count; i++) {
    const o = start + i * stride;
    for (let k = 0; k < size; k++) out[i * size + k] = norm(read(o + k * bytes));
  }
  return { values: out, size };
}

/**
 * Parses a GLB point content.
 *
 * @example
 * const points = parseGlbPoints(new Uint8Array(await (await fetch(uri)).arrayBuffer()));
 */
export function parseGlbPoints(glb: Uint8Array): GlbPoints {
  if (glb.byteLength < 20) throw new GlbError('too short for a GLB');
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (dv.getUint32(0, true) !== GLB_MAGIC) throw new GlbError('not a GLB (no glTF magic)');
  let at = 12;
  let json: GltfJson | null = null;
  let bin: DataView | null = null;
  while (at + 8 <= glb.byteLength) {
    const length = dv.getUint32(at, true);
    const type = dv.getUint32(at + 4, true);
    const body = glb.subarray(at + 8, at + 8 + length);
    if (body.byteLength < length) throw new GlbError('a chunk runs past the end of the GLB');
    if (type === CHUNK_JSON) json = JSON.parse(new TextDecoder().decode(body)) as GltfJson;
    else if (type === CHUNK_BIN) bin = new DataView(body.buffer, body.byteOffset, body.byteLength);
    at += 8 + length;
  }
  if (!json || !bin) throw new GlbError('the GLB lacks its JSON or binary chunk');
  const node = json.nodes.find((n) => n.mesh !== undefined);
  const prim = node ? json.meshes[node.mesh!]?.primitives[0] : undefined;
  if (!node || !prim || prim.attributes.POSITION === undefined) throw new GlbError('no point primitive');
  if (node.rotation || node.matrix) throw new GlbError('rotated nodes are not supported');
  const t = node.translation ?? [0, 0, 0];
  const s = node.scale ?? [1, 1, 1];
  const pos = readAccessor(json, bin, prim.attributes.POSITION).values;
  const count = pos.length / 3;
  const ecef = new Float64Array(count * 3);
  for (let i = 0; i < count; i++) {
    const gx = t[0]! + s[0]! * pos[i * 3]!;
    const gy = t[1]! + s[1]! * pos[i * 3 + 1]!;
    const gz = t[2]! + s[2]! * pos[i * 3 + 2]!;
    // glTF is y-up; 3D Tiles turn it z-up: (x, y, z) -> (x, -z, y).
    ecef[i * 3] = gx;
    ecef[i * 3 + 1] = -gz;
    ecef[i * 3 + 2] = gy;
  }
  const classification = new Uint8Array(count);
  if (prim.attributes._CLASSIFICATION !== undefined) {
    const v = readAccessor(json, bin, prim.attributes._CLASSIFICATION).values;
    for (let i = 0; i < count; i++) classification[i] = v[i]!;
  }
  const intensity = new Uint16Array(count);
  if (prim.attributes._INTENSITY !== undefined) {
    const v = readAccessor(json, bin, prim.attributes._INTENSITY).values;
    for (let i = 0; i < count; i++) intensity[i] = v[i]!;
  }
  let rgb: Uint8Array | undefined;
  if (prim.attributes.COLOR_0 !== undefined) {
    const { values, size } = readAccessor(json, bin, prim.attributes.COLOR_0);
    rgb = new Uint8Array(count * 3);
    // Normalised colours are 0..1; raw bytes stay 0..255.
    const k = json.accessors[prim.attributes.COLOR_0]!.normalized ? 255 : 1;
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round(values[i * size + c]! * k);
    }
  }
  return { count, ecef, classification, intensity, ...(rgb ? { rgb } : {}) };
}

/** WGS84 ellipsoid. */
const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);

/** ECEF (metres) to longitude, latitude (degrees) and ellipsoidal height (metres). */
export function ecefToGeodetic(x: number, y: number, z: number): [number, number, number] {
  const lon = Math.atan2(y, x);
  const p = Math.hypot(x, y);
  let lat = Math.atan2(z, p * (1 - E2));
  let h = 0;
  for (let i = 0; i < 6; i++) {
    const sin = Math.sin(lat);
    const n = A / Math.sqrt(1 - E2 * sin * sin);
    h = p / Math.cos(lat) - n;
    lat = Math.atan2(z, p * (1 - (E2 * n) / (n + h)));
  }
  return [(lon * 180) / Math.PI, (lat * 180) / Math.PI, h];
}

/** Longitude, latitude (degrees) and height (metres) to ECEF. */
export function geodeticToEcef(lon: number, lat: number, h: number): [number, number, number] {
  const l = (lon * Math.PI) / 180;
  const p = (lat * Math.PI) / 180;
  const sin = Math.sin(p);
  const n = A / Math.sqrt(1 - E2 * sin * sin);
  return [(n + h) * Math.cos(p) * Math.cos(l), (n + h) * Math.cos(p) * Math.sin(l), (n * (1 - E2) + h) * sin];
}

/** East-north-up offsets (metres) of ECEF points from an origin (degrees, metres). */
export function ecefToEnu(ecef: Float64Array, origin: [number, number, number]): Float32Array {
  const [lon, lat] = origin;
  const o = geodeticToEcef(origin[0], origin[1], origin[2]);
  const l = (lon * Math.PI) / 180;
  const p = (lat * Math.PI) / 180;
  const [sl, cl, sp, cp] = [Math.sin(l), Math.cos(l), Math.sin(p), Math.cos(p)];
  const n = ecef.length / 3;
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    const dx = ecef[i * 3]! - o[0];
    const dy = ecef[i * 3 + 1]! - o[1];
    const dz = ecef[i * 3 + 2]! - o[2];
    out[i * 3] = -sl * dx + cl * dy;
    out[i * 3 + 1] = -sp * cl * dx - sp * sl * dy + cp * dz;
    out[i * 3 + 2] = cp * cl * dx + cp * sl * dy + sp * dz;
  }
  return out;
}
