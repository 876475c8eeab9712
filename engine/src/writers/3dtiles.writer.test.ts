import { createHash } from 'node:crypto';
// @ts-expect-error gltf-validator ships no types
import validator from 'gltf-validator';
import { describe, expect, it } from 'vitest';
import { encodePointCloudGlb, packGlb } from './3dtiles.writer.js';

interface Issues {
  numErrors: number;
  numWarnings: number;
  messages: { code: string; message: string }[];
}

// biome-ignore lint/suspicious/noExplicitAny: test reads arbitrary glTF JSON
type Json = any;

function parseGlb(glb: Uint8Array): { json: Json; bin: Uint8Array } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  expect(dv.getUint32(0, true)).toBe(0x46546c67);
  expect(dv.getUint32(8, true)).toBe(glb.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binLength = dv.getUint32(20 + jsonLength, true);
  return { json, bin: glb.subarray(28 + jsonLength, 28 + jsonLength + binLength) };
}

function content(n: number, withColor: boolean) {
  const positions = new Float32Array(n * 3);
  const intensity = new Uint16Array(n);
  const classification = new Uint8Array(n);
  const rgba = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    positions.set([i * 0.5 - 10, (i % 7) - 3, -i * 0.25], i * 3);
    intensity[i] = 1000 + i * 3;
    classification[i] = [2, 5, 6][i % 3]!;
    rgba.set([i % 256, 10, 200, 255], i * 4);
  }
  return {
    count: n,
    positions,
    translation: [4_500_000.5, 4_480_000.25, -394_000.125] as [number, number, number],
    intensity,
    classification,
    ...(withColor ? { rgba } : {}),
  };
}

describe('3D Tiles writer: point GLB', () => {
  for (const [withColor, quantize] of [
    [true, false],
    [false, false],
    [true, true],
  ] as const) {
    it(`passes the Khronos glTF validator (${withColor ? 'with' : 'without'} colour, ${quantize ? 'int16' : 'float'} positions)`, async () => {
      const glb = encodePointCloudGlb({ ...content(101, withColor), quantize });
      const report = (await validator.validateBytes(glb)) as { issues: Issues };
      const problems = report.issues.messages.filter((m) => m.code !== 'UNSUPPORTED_EXTENSION');
      expect(problems).toEqual([]);
      expect(report.issues.numErrors).toBe(0);
      expect(report.issues.numWarnings).toBe(0);
    });
  }

  it('declares Classification and Intensity as EXT_structural_metadata property attributes', () => {
    const c = content(10, true);
    const { json, bin } = parseGlb(encodePointCloudGlb(c));
    expect(json.extensionsUsed).toEqual(['EXT_structural_metadata']);
    const meta = json.extensions.EXT_structural_metadata;
    const props = meta.schema.classes.point.properties;
    expect(props.Classification).toMatchObject({ type: 'SCALAR', componentType: 'UINT8' });
    expect(props.Intensity).toMatchObject({ type: 'SCALAR', componentType: 'UINT16' });
    expect(meta.propertyAttributes[0].properties).toEqual({
      Classification: { attribute: '_CLASSIFICATION' },
      Intensity: { attribute: '_INTENSITY' },
    });
    const prim = json.meshes[0].primitives[0];
    expect(prim.mode).toBe(0);
    expect(prim.extensions.EXT_structural_metadata.propertyAttributes).toEqual([0]);
    expect(json.nodes[0].translation).toEqual([4_500_000.5, 4_480_000.25, -394_000.125]);
    // The attribute bytes hold the values (4-byte stride).
    const cls = json.accessors[prim.attributes._CLASSIFICATION];
    const clsView = json.bufferViews[cls.bufferView];
    expect(cls.componentType).toBe(5121);
    expect(clsView.byteStride).toBe(4);
    expect([0, 1, 2, 3].map((i) => bin[clsView.byteOffset + i * 4])).toEqual([2, 5, 6, 2]);
    const int = json.accessors[prim.attributes._INTENSITY];
    const intView = json.bufferViews[int.bufferView];
    const dv = new DataView(bin.buffer, bin.byteOffset);
    expect(dv.getUint16(intView.byteOffset + 4 * 9, true)).toBe(1027);
    const pos = json.accessors[prim.attributes.POSITION];
    expect(pos.min).toEqual([-10, -3, -2.25]);
    expect(pos.max).toEqual([-5.5, 3, 0]);
    const col = json.accessors[prim.attributes.COLOR_0];
    expect(col).toMatchObject({ componentType: 5121, normalized: true, type: 'VEC4' });
  });

  it('quantises positions to int16 with the node scale (KHR_mesh_quantization)', () => {
    const c = content(10, false);
    const { json, bin } = parseGlb(encodePointCloudGlb({ ...c, quantize: true }));
    expect(json.extensionsRequired).toEqual(['KHR_mesh_quantization']);
    const acc = json.accessors[json.meshes[0].primitives[0].attributes.POSITION];
    expect(acc).toMatchObject({ componentType: 5122, normalized: true, type: 'VEC3' });
    const view = json.bufferViews[acc.bufferView];
    expect(view.byteStride).toBe(8);
    const scale = json.nodes[0].scale as number[];
    const dv = new DataView(bin.buffer, bin.byteOffset);
    for (let i = 0; i < 10; i++) {
      for (let k = 0; k < 3; k++) {
        const q = dv.getInt16(view.byteOffset + i * 8 + k * 2, true);
        expect(Math.abs((q / 32767) * scale[k]! - c.positions[i * 3 + k]!)).toBeLessThanOrEqual(scale[k]! / 32767);
      }
    }
  });

  it('refuses an empty content and pads chunks to 4 bytes', () => {
    expect(() => encodePointCloudGlb(content(0, false))).toThrow(RangeError);
    const glb = packGlb({ asset: { version: '2.0' } }, new Uint8Array(5));
    expect(glb.byteLength % 4).toBe(0);
  });
});

/** A deterministic content of `n` points spread over ±60 m (xorshift), every column filled. */
function pseudoRandomContent(n: number, withColor: boolean) {
  let state = 0x9e3779b9;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const positions = new Float32Array(n * 3);
  const intensity = new Uint16Array(n);
  const classification = new Uint8Array(n);
  const rgba = new Uint8Array(n * 4);
  for (let i = 0; i < n * 3; i++) positions[i] = (next() - 0.5) * 120 * (i % 3 === 1 ? 0.25 : 1);
  for (let i = 0; i < n; i++) {
    intensity[i] = Math.floor(next() * 65536);
    classification[i] = Math.floor(next() * 32);
    for (let k = 0; k < 3; k++) rgba[i * 4 + k] = Math.floor(next() * 256);
    rgba[i * 4 + 3] = 255;
  }
  return {
    count: n,
    positions,
    translation: [4_500_000.5, 4_480_000.25, -394_000.125] as [number, number, number],
    intensity,
    classification,
    ...(withColor ? { rgba } : {}),
  };
}

describe('3D Tiles writer: GLB bytes', () => {
  // SHA-256 of the GLB of a fixed input, recorded from the encoder before its loops were split into
  // functions (V8 warm-up): any change to the bytes, however small, fails here.
  for (const [withColor, quantize, digest] of [
    [true, false, '669a3224da95523bd1d3faaa202560d685adb6d403ba312ad45e9f506b3acc0c'],
    [false, false, 'b401a7262cfc2e4d64044174ee077f7f42ce6a6d9c6bc17d2401a34af9f02d39'],
    [true, true, 'a31e8b37520a3de4a97d8ac5637a6821430c63bd72321a6d51a504880d3afee5'],
    [false, true, 'a1dd5e1df84af82702833f1b39e49c357df242e8f3ce24bf2fa2c06845b55273'],
  ] as const) {
    it(`are unchanged (${withColor ? 'with' : 'without'} colour, ${quantize ? 'int16' : 'float'} positions)`, () => {
      const glb = encodePointCloudGlb({ ...pseudoRandomContent(5003, withColor), quantize });
      expect(createHash('sha256').update(glb).digest('hex')).toBe(digest);
    });
  }
});
