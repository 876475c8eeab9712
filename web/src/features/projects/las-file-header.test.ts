import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { InvalidInput } from '@nuage/engine/core/errors.js';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { REAL_FILES } from '@nuage/fixtures/real-files.js';
import { describe, expect, it } from 'vitest';
import { blobByteSource, LasHeaderError, readLasHeaderFromFile } from './las-file-header.js';

async function refused(blob: Blob): Promise<LasHeaderError> {
  try {
    await readLasHeaderFromFile(blob);
  } catch (err) {
    if (err instanceof LasHeaderError) return err;
    throw err;
  }
  throw new Error('the header was accepted');
}

/** A copy of a real file with one edit, as a Blob (cut to `size` bytes when given). */
async function realWith(name: string, edit: (view: DataView) => void, size?: number): Promise<Blob> {
  const bytes = new Uint8Array(await readFile(realFile(name)));
  edit(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return new Blob([size === undefined ? bytes : bytes.subarray(0, size)]);
}

const autzenWith = (edit: (view: DataView) => void, size?: number) => realWith('autzen_trim.las', edit, size);

describe.runIf(hasRealData())('readLasHeaderFromFile on the real files', () => {
  it.each(REAL_FILES.map((f) => [f.file, f] as const))('%s', async (_, facts) => {
    const header = await readLasHeaderFromFile(await openAsBlob(realFile(facts.file)));
    expect(header.version).toBe(facts.lasVersion);
    expect(header.pointFormat).toBe(facts.pointFormat);
    expect(header.pointRecordLength).toBe(facts.recordLength);
    expect(header.pointCount).toBe(facts.pointCount);
    expect(header.compressed).toBe(facts.compressed);
    expect(header.min[0]).toBeCloseTo(facts.bbox.minX, 2);
    expect(header.max[1]).toBeCloseTo(facts.bbox.maxY, 2);
    expect(header.min[2]).toBeCloseTo(facts.bbox.minZ, 2);
    expect(header.max[2]).toBeCloseTo(facts.bbox.maxZ, 2);
    expect(header.scale).toEqual(facts.scale);
    expect(header.generatingSoftware).toBe(facts.generatingSoftware);
    expect(header.systemIdentifier).toBe(facts.systemId);
  });

  it('gives the upload request its lasHeaderData, field for field', async () => {
    const autzen = await readLasHeaderFromFile(await openAsBlob(realFile('autzen_trim.las')));
    // Key order too: the JSON body the API receives is unchanged.
    expect(JSON.stringify(autzen)).toBe(
      JSON.stringify({
        version: '1.2',
        pointFormat: 3,
        pointRecordLength: 34,
        compressed: false,
        pointCount: 110000,
        headerSize: 227,
        pointDataOffset: 2038,
        vlrCount: 5,
        systemIdentifier: 'PDAL',
        generatingSoftware: 'PDAL 1.0.0 (9e8465)',
        creationDay: 253,
        creationYear: 2015,
        scale: [0.01, 0.01, 0.01],
        offset: [0, 0, 0],
        min: [636001.76, 848935.2000000001, 406.26],
        max: [637179.2200000001, 849497.9, 520.51],
        // User-defined projected keys: a CRS without an EPSG code (the WKT names it).
        epsgCode: null,
        hasWkt: true,
      }),
    );
    const las14 = await readLasHeaderFromFile(await openAsBlob(realFile('file_with_both_wkt_and_geotiff_vlrs.las')));
    expect(las14).toMatchObject({ version: '1.4', headerSize: 375, vlrCount: 4, epsgCode: 32104, hasWkt: true });
  });

  it('reads the GeoTIFF EPSG code and the WKT record', async () => {
    const fusa = await readLasHeaderFromFile(await openAsBlob(realFile('fusa.laz')));
    expect([fusa.epsgCode, fusa.hasWkt]).toEqual([32754, false]);
    const mvk = await readLasHeaderFromFile(await openAsBlob(realFile('mvk-thin.las')));
    expect([mvk.epsgCode, mvk.hasWkt]).toEqual([26995, false]);
    const ahn = await readLasHeaderFromFile(await openAsBlob(realFile('ahn3_cropped_1.laz')));
    expect([ahn.epsgCode, ahn.hasWkt]).toEqual([null, false]);
  });

  it('refuses a file without a LAS header', async () => {
    const short = await refused(new Blob([new Uint8Array(100)]));
    expect([short.code, short.field, short.offset]).toEqual(['LAS_HEADER_MISSING', 'header', 0]);
    const text = await refused(new Blob(['x,y,z\n'.repeat(100)]));
    expect(text.code).toBe('LAS_HEADER_MISSING');
    expect(text.field).toBe('header.signature');
    expect(text.cause).toBeInstanceOf(InvalidInput);
  });

  it('refuses a file that ends inside the header it announces as missing its header', async () => {
    const las14 = await refused(await realWith('file_with_both_wkt_and_geotiff_vlrs.las', () => {}, 300));
    expect([las14.code, las14.field]).toEqual(['LAS_HEADER_MISSING', 'header.headerSize']);
    const tooSmall = await refused(await autzenWith((v) => v.setUint16(94, 100, true)));
    expect([tooSmall.code, tooSmall.field]).toEqual(['FILE_INVALID', 'header.headerSize']);
  });

  it('refuses inconsistent headers as invalid files, naming the field and its offset', async () => {
    const version = await refused(await autzenWith((v) => v.setUint8(24, 2)));
    expect([version.code, version.field, version.offset]).toEqual(['FILE_INVALID', 'header.version', 24]);
    expect(version.message).toMatch(/^header\.version \(byte 24\): unsupported LAS version 2\.2/);
    const format = await refused(await autzenWith((v) => v.setUint8(104, 12)));
    expect([format.field, format.offset]).toEqual(['header.pointFormat', 104]);
    const record = await refused(await autzenWith((v) => v.setUint16(105, 20, true)));
    expect(record.field).toBe('header.pointRecordLength');
    const scale = await refused(await autzenWith((v) => v.setFloat64(139, 0, true)));
    expect(scale.field).toBe('header.scale.y');
    const bounds = await refused(await autzenWith((v) => v.setFloat64(211, 0, true)));
    expect(bounds.field).toBe('header.minZ');
    const vlrs = await refused(await autzenWith((v) => v.setUint32(100, 1000, true)));
    expect(vlrs.field).toBe('header.vlrCount');
    // The engine's checks beyond the old browser ones apply too: a LAZ flag needs a LASzip record.
    const laz = await refused(await autzenWith((v) => v.setUint8(104, 0x83)));
    expect([laz.code, laz.field]).toEqual(['FILE_INVALID', 'vlr[laszip encoded/22204]']);
  });

  it('refuses a file without points', async () => {
    const empty = await refused(await autzenWith((v) => v.setUint32(107, 0, true)));
    expect([empty.code, empty.field, empty.offset]).toEqual(['FILE_INVALID', 'header.pointCount', 107]);
    const empty14 = await refused(
      await realWith('file_with_both_wkt_and_geotiff_vlrs.las', (v) => {
        v.setUint32(107, 0, true);
        v.setBigUint64(247, 0n, true);
      }),
    );
    expect([empty14.field, empty14.offset]).toEqual(['header.pointCount', 247]);
  });

  it('refuses a truncated uncompressed file', async () => {
    const err = await refused(await autzenWith(() => {}, 100_000));
    expect(err.code).toBe('FILE_INVALID');
    expect(err.field).toBe('header.pointCount');
    expect(err.message).toContain('truncated');
  });
});

describe('blobByteSource', () => {
  const blob = new Blob([new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])]);

  it('reads byte ranges of a Blob', async () => {
    const source = blobByteSource(blob);
    expect(source.size).toBe(10);
    expect([...(await source.read(3, 4))]).toEqual([3, 4, 5, 6]);
    const into = new Uint8Array(8);
    const read = await source.read(8, 2, into);
    expect([...read]).toEqual([8, 9]);
    expect(read.buffer).toBe(into.buffer);
  });

  it('refuses a range past the end as a truncated file', async () => {
    await expect(blobByteSource(blob).read(8, 4)).rejects.toMatchObject({
      name: 'InvalidInput',
      field: 'file',
      offset: 8,
    });
  });
});

describe('readLasHeaderFromFile', () => {
  it('lets an unreadable file fail with the browser error', async () => {
    const unreadable = {
      size: 1000,
      slice: () => ({ arrayBuffer: () => Promise.reject(new DOMException('cannot read', 'NotReadableError')) }),
    } as unknown as Blob;
    await expect(readLasHeaderFromFile(unreadable)).rejects.toMatchObject({ name: 'NotReadableError' });
  });
});
