/**
 * Conformance of the record decoder for every point format 0–10: synthetic
 * files with known field values at the offsets of the LAS 1.4 R15 tables.
 */
import { describe, expect, it } from 'vitest';
import { openPointCloudBytes, pointFormatLayout } from '../src/readers/index.js';
import { emptyLas } from '../src/readers/las-bytes.test-helper.js';

function buildLas(format: number, extraBytes = 0): Uint8Array {
  const count = 3;
  const {
    bytes,
    view: dv,
    headerSize,
    recordLength,
  } = emptyLas(format, count, extraBytes, [0.01, 0.01, 0.01], [1000, 2000, 3000], 1e6);
  const layout = pointFormatLayout(format);
  for (let i = 0; i < count; i++) {
    const p = headerSize + i * recordLength;
    dv.setInt32(p, 100 * i + 1, true);
    dv.setInt32(p + 4, -200 * i, true);
    dv.setInt32(p + 8, 300 + i, true);
    dv.setUint16(p + 12, 1000 + i, true);
    if (layout.extended) {
      bytes[p + 14] = (i + 1) | (3 << 4);
      bytes[p + 15] = 0b1010 | (2 << 4) | (1 << 6) | (i === 2 ? 1 << 7 : 0);
      bytes[p + 16] = 40 + i;
      bytes[p + 17] = 7;
      dv.setInt16(p + 18, -2500, true);
      dv.setUint16(p + 20, 12 + i, true);
    } else {
      bytes[p + 14] = (i + 1) | (3 << 3) | (1 << 6) | (i === 2 ? 1 << 7 : 0);
      bytes[p + 15] = (2 + i) | (0b101 << 5);
      dv.setInt8(p + 16, -15);
      bytes[p + 17] = 7;
      dv.setUint16(p + 18, 12 + i, true);
    }
    if (layout.gpsTime >= 0) dv.setFloat64(p + layout.gpsTime, 123456.5 + i, true);
    if (layout.rgb >= 0) for (let c = 0; c < 3; c++) dv.setUint16(p + layout.rgb + 2 * c, 100 * (c + 1) + i, true);
    if (layout.nir >= 0) dv.setUint16(p + layout.nir, 777 + i, true);
    for (let e = 0; e < extraBytes; e++) bytes[p + layout.baseSize + e] = 200 + e;
  }
  return bytes;
}

describe('every point data record format', () => {
  it.each(Array.from({ length: 11 }, (_, f) => f))('format %i', async (format) => {
    const reader = await openPointCloudBytes(buildLas(format, 2));
    expect(reader.header.pointFormat).toBe(format);
    expect(reader.header.extraBytes.map((f) => f.name)).toEqual([`extra_byte_0`, `extra_byte_1`]);
    const chunks = [];
    for await (const c of reader.read()) chunks.push(c);
    await reader.close();
    expect(chunks).toHaveLength(1);
    const c = chunks[0]!;
    const layout = pointFormatLayout(format);
    expect(c.count).toBe(3);
    expect(Array.from(c.x)).toEqual([1000.01, 1001.01, 1002.01]);
    expect(Array.from(c.y)).toEqual([2000, 1998, 1996]);
    expect(Array.from(c.z)).toEqual([3003, 3003.01, 3003.02]);
    expect(Array.from(c.intensity!)).toEqual([1000, 1001, 1002]);
    expect(Array.from(c.returnNumber!)).toEqual([1, 2, 3]);
    expect(Array.from(c.numberOfReturns!)).toEqual([3, 3, 3]);
    expect(Array.from(c.scanDirection!)).toEqual([1, 1, 1]);
    expect(Array.from(c.edgeOfFlightLine!)).toEqual([0, 0, 1]);
    expect(Array.from(c.userData!)).toEqual([7, 7, 7]);
    expect(Array.from(c.pointSourceId!)).toEqual([12, 13, 14]);
    expect(Array.from(c.scanAngle!)).toEqual([-15, -15, -15]);
    if (layout.extended) {
      expect(Array.from(c.classification!)).toEqual([40, 41, 42]);
      expect(Array.from(c.classFlags!)).toEqual([0b1010, 0b1010, 0b1010]);
      expect(Array.from(c.scannerChannel!)).toEqual([2, 2, 2]);
    } else {
      expect(Array.from(c.classification!)).toEqual([2, 3, 4]);
      expect(Array.from(c.classFlags!)).toEqual([0b101, 0b101, 0b101]);
    }
    expect(c.gpsTime ? Array.from(c.gpsTime) : null).toEqual(
      layout.gpsTime >= 0 ? [123456.5, 123457.5, 123458.5] : null,
    );
    expect(c.red ? [c.red[1], c.green![1], c.blue![1]] : null).toEqual(layout.rgb >= 0 ? [101, 201, 301] : null);
    expect(c.nir ? Array.from(c.nir) : null).toEqual(layout.nir >= 0 ? [777, 778, 779] : null);
    expect(Array.from(c.extra!.extra_byte_1!)).toEqual([201, 201, 201]);
  });
});
