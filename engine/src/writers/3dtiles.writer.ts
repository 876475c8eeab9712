/**
 * 3D Tiles 1.1 writer pieces: point-cloud GLB contents and the tileset JSON.
 *
 * Layout of a point content (glTF 2.0, one POINTS primitive, y-up as glTF
 * requires; 3D Tiles rotates y-up to z-up when loading):
 * - `POSITION` float32 VEC3 relative to the node's `translation` (the tile
 *   centre in ECEF, expressed y-up), so float32 keeps sub-millimetre precision;
 *   or, with `quantize`, int16 normalised VEC3 (KHR_mesh_quantization, which
 *   CesiumJS supports) scaled by the node's `scale`: 8 bytes a point instead
 *   of 12, with a step of the tile's half-extent / 32767 (the tiler uses it up to a 2 mm step);
 * - `COLOR_0` uint8 normalised VEC4 (RGB + opaque alpha), when the cloud has colour;
 * - `_INTENSITY` uint16 and `_CLASSIFICATION` uint8, exposed through
 *   `EXT_structural_metadata` property attributes as `Intensity` and
 *   `Classification`. CesiumJS (1.97+) compiles point-cloud styles on the GPU
 *   for glTF points without feature IDs and resolves `${Classification}` /
 *   `${Intensity}` to these property attributes, the same names its PNTS path
 *   and Cesium ion use, so one style works for both.
 * Vertex attributes are 4-byte aligned (`byteStride` 4 for the 1- and 2-byte ones) as glTF requires.
 */

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const FLOAT = 5126;
const UNSIGNED_BYTE = 5121;
const SHORT = 5122;
const UNSIGNED_SHORT = 5123;
const ARRAY_BUFFER = 34962;

/** Name of the metadata class and of its properties (what styles refer to). */
export const POINT_CLASS = 'point';
export const CLASSIFICATION_PROPERTY = 'Classification';
export const INTENSITY_PROPERTY = 'Intensity';

/** The columns of one point content. */
export interface PointContent {
  count: number;
  /** xyz triples, y-up, relative to `translation` (metres). */
  positions: Float32Array;
  /** Node translation (y-up ECEF of the tile centre, metres). */
  translation: [number, number, number];
  /** Store positions as int16 normalised (KHR_mesh_quantization) instead of float32. */
  quantize?: boolean;
  /** RGBA, 4 bytes a point, or undefined when the cloud has no colour. */
  rgba?: Uint8Array;
  intensity: Uint16Array;
  classification: Uint8Array;
}

interface View {
  byteOffset: number;
  byteLength: number;
  byteStride?: number;
}

/**
 * Encodes one point content as a binary glTF (GLB).
 *
 * @example
 * const glb = encodePointCloudGlb({ count, positions, translation, intensity, classification });
 */
export function encodePointCloudGlb(content: PointContent): Uint8Array {
  const n = content.count;
  if (n <= 0) throw new RangeError('a point content needs at least one point');
  const hasColor = content.rgba !== undefined;
  const quantize = content.quantize === true;
  const posBytes = n * (quantize ? 8 : 12);
  const colBytes = hasColor ? n * 4 : 0;
  const intBytes = n * 4;
  const clsBytes = n * 4;
  const binLength = posBytes + colBytes + intBytes + clsBytes;
  const bin = new Uint8Array(binLength);
  const views: View[] = [];
  let at = 0;
  const p = content.positions;
  const bounds = new Float64Array(6);
  positionBounds(p, n, bounds);
  const min = [bounds[0]!, bounds[1]!, bounds[2]!];
  const max = [bounds[3]!, bounds[4]!, bounds[5]!];
  // Quantised: q = round(v / scale * 32767) with scale = the largest |v| per axis (node scale undoes it).
  const scale = [1, 1, 1];
  if (quantize) {
    for (let k = 0; k < 3; k++) scale[k] = Math.max(Math.abs(min[k]!), Math.abs(max[k]!), 1e-6);
    const q16 = new Int16Array(bin.buffer, at, n * 4);
    // glTF: min/max of an integer accessor are the stored integers, even when normalised.
    quantizePositions(p, n, scale[0]!, scale[1]!, scale[2]!, q16, bounds);
    for (let k = 0; k < 3; k++) {
      min[k] = bounds[k]!;
      max[k] = bounds[3 + k]!;
    }
    views.push({ byteOffset: at, byteLength: posBytes, byteStride: 8 });
  } else {
    bin.set(new Uint8Array(p.buffer, p.byteOffset, posBytes), at);
    views.push({ byteOffset: at, byteLength: posBytes });
  }
  at += posBytes;
  if (hasColor) {
    bin.set(content.rgba!.subarray(0, colBytes), at);
    views.push({ byteOffset: at, byteLength: colBytes });
    at += colBytes;
  }
  // Little-endian hosts only (every platform Node supports): a 2-element stride gives the 4-byte vertex stride.
  spread16(content.intensity, n, new Uint16Array(bin.buffer, at, n * 2));
  views.push({ byteOffset: at, byteLength: intBytes, byteStride: 4 });
  at += intBytes;
  spread8(content.classification, n, new Uint8Array(bin.buffer, at, clsBytes));
  views.push({ byteOffset: at, byteLength: clsBytes, byteStride: 4 });

  const accessors: Record<string, unknown>[] = [
    quantize
      ? { bufferView: 0, componentType: SHORT, normalized: true, count: n, type: 'VEC3', min, max }
      : { bufferView: 0, componentType: FLOAT, count: n, type: 'VEC3', min, max },
  ];
  const attributes: Record<string, number> = { POSITION: 0 };
  let viewIndex = 1;
  if (hasColor) {
    attributes.COLOR_0 = accessors.length;
    accessors.push({ bufferView: viewIndex++, componentType: UNSIGNED_BYTE, normalized: true, count: n, type: 'VEC4' });
  }
  attributes._INTENSITY = accessors.length;
  accessors.push({ bufferView: viewIndex++, componentType: UNSIGNED_SHORT, count: n, type: 'SCALAR' });
  attributes._CLASSIFICATION = accessors.length;
  accessors.push({ bufferView: viewIndex++, componentType: UNSIGNED_BYTE, count: n, type: 'SCALAR' });

  const gltf = {
    asset: { version: '2.0', generator: 'Nuage tiler' },
    extensionsUsed: quantize ? ['EXT_structural_metadata', 'KHR_mesh_quantization'] : ['EXT_structural_metadata'],
    ...(quantize ? { extensionsRequired: ['KHR_mesh_quantization'] } : {}),
    extensions: {
      EXT_structural_metadata: {
        schema: {
          id: 'nuage_point_cloud',
          classes: {
            [POINT_CLASS]: {
              properties: {
                [CLASSIFICATION_PROPERTY]: {
                  description: 'ASPRS class code',
                  type: 'SCALAR',
                  componentType: 'UINT8',
                },
                [INTENSITY_PROPERTY]: {
                  description: 'pulse return magnitude as stored in the LAS file',
                  type: 'SCALAR',
                  componentType: 'UINT16',
                },
              },
            },
          },
        },
        propertyAttributes: [
          {
            class: POINT_CLASS,
            properties: {
              [CLASSIFICATION_PROPERTY]: { attribute: '_CLASSIFICATION' },
              [INTENSITY_PROPERTY]: { attribute: '_INTENSITY' },
            },
          },
        ],
      },
    },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, translation: content.translation, ...(quantize ? { scale } : {}) }],
    meshes: [
      {
        primitives: [
          {
            attributes,
            mode: 0,
            extensions: { EXT_structural_metadata: { propertyAttributes: [0] } },
          },
        ],
      },
    ],
    accessors,
    bufferViews: views.map((v) => ({ buffer: 0, ...v, target: ARRAY_BUFFER })),
    buffers: [{ byteLength: binLength }],
  };
  return packGlb(gltf, bin);
}

// The per-point loops of the encoder, one loop per function (as in tiler/point-loops.ts): V8 compiles
// a long function while its first loop runs, before the code after that loop has ever run, and that
// compiled code then gave up at each later loop of every call (13 bailouts in a first tiling of
// wires.laz). Results go into typed arrays they are given, written before or inside the loop.

/**
 * Smallest and largest of each coordinate of `n` xyz triples: `out` = [minX, minY, minZ, maxX,
 * maxY, maxZ] (±Infinity left where every value is NaN).
 */
function positionBounds(p: Float32Array, n: number, out: Float64Array): void {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let z0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  let z1 = Number.NEGATIVE_INFINITY;
  out[0] = x0;
  out[1] = y0;
  out[2] = z0;
  out[3] = x1;
  out[4] = y1;
  out[5] = z1;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const x = p[o]!;
    const y = p[o + 1]!;
    const z = p[o + 2]!;
    if (x < x0) out[0] = x0 = x;
    if (x > x1) out[3] = x1 = x;
    if (y < y0) out[1] = y0 = y;
    if (y > y1) out[4] = y1 = y;
    if (z < z0) out[2] = z0 = z;
    if (z > z1) out[5] = z1 = z;
  }
}

/**
 * int16 positions, `round(v / scale * 32767)` clamped to ±32767, at a stride of 4 (8 bytes a point);
 * `out` = the smallest and largest stored value of each axis, as {@link positionBounds}.
 */
function quantizePositions(
  p: Float32Array,
  n: number,
  sx: number,
  sy: number,
  sz: number,
  q16: Int16Array,
  out: Float64Array,
): void {
  let x0 = 32767;
  let y0 = 32767;
  let z0 = 32767;
  let x1 = -32767;
  let y1 = -32767;
  let z1 = -32767;
  out[0] = x0;
  out[1] = y0;
  out[2] = z0;
  out[3] = x1;
  out[4] = y1;
  out[5] = z1;
  for (let i = 0, o = 0, q = 0; i < n; i++, o += 3, q += 4) {
    const x = Math.max(-32767, Math.min(32767, Math.round((p[o]! / sx) * 32767)));
    const y = Math.max(-32767, Math.min(32767, Math.round((p[o + 1]! / sy) * 32767)));
    const z = Math.max(-32767, Math.min(32767, Math.round((p[o + 2]! / sz) * 32767)));
    q16[q] = x;
    q16[q + 1] = y;
    q16[q + 2] = z;
    if (x < x0) out[0] = x0 = x;
    if (x > x1) out[3] = x1 = x;
    if (y < y0) out[1] = y0 = y;
    if (y > y1) out[4] = y1 = y;
    if (z < z0) out[2] = z0 = z;
    if (z > z1) out[5] = z1 = z;
  }
}

/** `out[2 i] = values[i]`: 16-bit values at a 4-byte stride. */
function spread16(values: Uint16Array, n: number, out: Uint16Array): void {
  for (let i = 0; i < n; i++) out[i * 2] = values[i]!;
}

/** `out[4 i] = values[i]`: bytes at a 4-byte stride. */
function spread8(values: Uint8Array, n: number, out: Uint8Array): void {
  for (let i = 0; i < n; i++) out[i * 4] = values[i]!;
}

/** Wraps a glTF JSON and its binary buffer in a GLB container (chunks padded to 4 bytes). */
export function packGlb(gltf: unknown, bin: Uint8Array): Uint8Array {
  const json = Buffer.from(JSON.stringify(gltf));
  const jsonLength = Math.ceil(json.length / 4) * 4;
  const binLength = Math.ceil(bin.byteLength / 4) * 4;
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(json, 20);
  out.fill(0x20, 20 + json.length, 20 + jsonLength);
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(24 + jsonLength, CHUNK_BIN, true);
  out.set(bin, 28 + jsonLength);
  return out;
}

/** A tile of tileset.json (3D Tiles 1.1). */
export interface TileJson {
  boundingVolume: { box: number[] };
  geometricError: number;
  refine?: 'ADD' | 'REPLACE';
  content?: { uri: string };
  children?: TileJson[];
}

/** The root object of tileset.json. */
export interface TilesetJson {
  asset: { version: '1.1'; generator?: string; tilesetVersion?: string };
  geometricError: number;
  root: TileJson;
  properties?: Record<string, { minimum: number; maximum: number }>;
  extras?: Record<string, unknown>;
}
