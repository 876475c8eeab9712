import { readFileSync } from 'node:fs';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../src/core/errors.js';
import { openPointCloudBytes } from '../src/readers/index.js';

type Mutation = (b: Buffer) => Buffer;

/** A mutation that edits the bytes in place. */
const edit =
  (change: (b: Buffer) => void): Mutation =>
  (b) => {
    change(b);
    return b;
  };

async function failure(file: string, mutate: Mutation): Promise<InvalidInput> {
  const bytes = mutate(Buffer.from(readFileSync(realFile(file))));
  try {
    const reader = await openPointCloudBytes(bytes);
    for await (const _ of reader.read({ workers: 0 })) {
      // read everything
    }
    await reader.close();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    return error as InvalidInput;
  }
  throw new Error('expected InvalidInput, the file was accepted');
}

const LAS12 = 'mvk-thin.las';
const LAS14 = 'file_with_both_wkt_and_geotiff_vlrs.las';
const LAZ = 'fusa.laz';

describe.skipIf(!hasRealData())('strict header validation: InvalidInput names the field and byte offset', () => {
  const cases: Array<[string, string, Mutation, string | RegExp, number | undefined]> = [
    [
      'signature',
      LAS12,
      edit((b) => {
        b.write('LASX', 0);
      }),
      'header.signature',
      0,
    ],
    [
      'version',
      LAS12,
      edit((b) => {
        b[25] = 7;
      }),
      'header.version',
      24,
    ],
    [
      'header size for 1.2',
      LAS12,
      edit((b) => {
        b.writeUInt16LE(200, 94);
      }),
      'header.headerSize',
      94,
    ],
    [
      'header size for 1.4',
      LAS14,
      edit((b) => {
        b.writeUInt16LE(300, 94);
      }),
      'header.headerSize',
      94,
    ],
    [
      'offset to point data inside the header',
      LAS12,
      edit((b) => {
        b.writeUInt32LE(100, 96);
      }),
      'header.pointDataOffset',
      96,
    ],
    [
      'offset to point data before the VLRs end',
      LAS12,
      edit((b) => {
        b.writeUInt32LE(600, 96);
      }),
      /^vlr\[\d\]/,
      undefined,
    ],
    [
      'offset to point data past the end',
      LAS12,
      edit((b) => {
        b.writeUInt32LE(10_000_000, 96);
      }),
      'header.pointDataOffset',
      96,
    ],
    [
      'VLR running past the point data',
      LAS12,
      edit((b) => {
        b.writeUInt16LE(60000, 227 + 20);
      }),
      'vlr[0].recordLength',
      247,
    ],
    [
      'VLR count',
      LAS12,
      edit((b) => {
        b.writeUInt32LE(1000, 100);
      }),
      'header.vlrCount',
      100,
    ],
    [
      'record length shorter than the format',
      LAS12,
      edit((b) => {
        b.writeUInt16LE(20, 105);
      }),
      'header.pointRecordLength',
      105,
    ],
    [
      'unknown point format',
      LAS12,
      edit((b) => {
        b[104] = 11;
      }),
      'header.pointFormat',
      104,
    ],
    [
      'format 6 in LAS 1.2',
      LAS12,
      edit((b) => {
        b[104] = 6;
      }),
      'header.pointFormat',
      104,
    ],
    [
      'point count against file size',
      LAS12,
      edit((b) => {
        b.writeUInt32LE(1_000_000_000, 107);
      }),
      'header.pointCount',
      107,
    ],
    [
      '64-bit point count against file size',
      LAS14,
      edit((b) => {
        b.writeBigUInt64LE(2n ** 52n, 247);
      }),
      'header.pointCount',
      247,
    ],
    [
      'legacy against 64-bit count',
      LAS14,
      edit((b) => {
        b.writeUInt32LE(5, 107);
      }),
      'header.legacyPointCount',
      107,
    ],
    [
      'zero scale',
      LAS12,
      edit((b) => {
        b.writeDoubleLE(0, 131);
      }),
      'header.scale.x',
      131,
    ],
    [
      'non-finite scale',
      LAS12,
      edit((b) => {
        b.writeDoubleLE(Number.NaN, 147);
      }),
      'header.scale.z',
      147,
    ],
    [
      'non-finite offset',
      LAS12,
      edit((b) => {
        b.writeDoubleLE(Number.POSITIVE_INFINITY, 163);
      }),
      'header.offset.y',
      163,
    ],
    [
      'min greater than max',
      LAS12,
      edit((b) => {
        b.writeDoubleLE(9e9, 187);
      }),
      'header.minX',
      187,
    ],
    ['truncated LAS', LAS12, (b) => b.subarray(0, 100_000), 'header.pointCount', 107],
    ['truncated header', LAS12, (b) => b.subarray(0, 150), 'header', 0],
    [
      'EVLR outside the file',
      LAS14,
      edit((b) => {
        b.writeUInt32LE(1, 243);
        b.writeBigUInt64LE(10n ** 9n, 235);
      }),
      'header.evlrOffset',
      235,
    ],
    ['truncated LAZ', LAZ, (b) => b.subarray(0, 500_000), 'laz.chunkTableOffset', undefined],
    [
      'LAZ whose declared points cannot fit',
      LAZ,
      edit((b) => {
        b.writeUInt32LE(277573 * 40, 107);
      }),
      'header.pointCount',
      107,
    ],
    [
      'LAZ format contradicting its items',
      LAZ,
      edit((b) => {
        b[104] = 0x80 | 3;
      }),
      /laszip|pointFormat|pointRecordLength/,
      undefined,
    ],
  ];
  it.each(cases)('%s', async (_label, file, mutate, field, offset) => {
    const error = await failure(file, mutate);
    if (typeof field === 'string') expect(error.field).toBe(field);
    else expect(error.field).toMatch(field);
    if (offset !== undefined) expect(error.offset).toBe(offset);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(error.field);
  });

  it('extra bytes described beyond the record length', async () => {
    // MixedConifer: one f64 'treeID'; declaring it an f64[3] needs 24 bytes, records have 8.
    const bytes = Buffer.from(readFileSync(realFile('MixedConifer.laz')));
    const at = bytes.indexOf(Buffer.from('treeID')) - 4;
    bytes[at + 2] = 30;
    const error = await failure('MixedConifer.laz', () => bytes);
    expect(error.field).toBe('vlr[LASF_Spec/4]');
  });

  it('accepts the unmodified files', async () => {
    for (const file of [LAS12, LAS14, LAZ]) {
      const reader = await openPointCloudBytes(readFileSync(realFile(file)));
      let n = 0;
      for await (const chunk of reader.read({ workers: 0 })) n += chunk.count;
      expect(n).toBe(reader.header.pointCount);
      await reader.close();
    }
  });
});
