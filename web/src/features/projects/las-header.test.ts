import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { REAL_FILES } from '@nuage/fixtures/real-files.js';
import { describe, expect, it } from 'vitest';
import { LasHeaderError, parseLasHeader, readLasHeaderFromFile } from './las-header.js';

async function refused(blob: Blob): Promise<LasHeaderError> {
  try {
    await readLasHeaderFromFile(blob);
  } catch (err) {
    if (err instanceof LasHeaderError) return err;
    throw err;
  }
  throw new Error('the header was accepted');
}

/** A copy of autzen_trim.las's first bytes with one edit, as a Blob of the real file's size. */
async function autzenWith(edit: (view: DataView) => void, size?: number): Promise<Blob> {
  const bytes = new Uint8Array(await readFile(realFile('autzen_trim.las')));
  edit(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return new Blob([size === undefined ? bytes : bytes.subarray(0, size)]);
}

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

  it('reads the creation date and the GeoTIFF EPSG code', async () => {
    const autzen = await readLasHeaderFromFile(await openAsBlob(realFile('autzen_trim.las')));
    expect([autzen.creationDay, autzen.creationYear]).toEqual([253, 2015]);
    // User-defined projected keys: a CRS without an EPSG code (the WKT names it).
    expect(autzen.epsgCode).toBeNull();
    expect(autzen.hasWkt).toBe(true);
    const fusa = await readLasHeaderFromFile(await openAsBlob(realFile('fusa.laz')));
    expect(fusa.epsgCode).toBe(32754);
    const ahn = await readLasHeaderFromFile(await openAsBlob(realFile('ahn3_cropped_1.laz')));
    expect(ahn.epsgCode).toBeNull();
    expect(ahn.hasWkt).toBe(false);
  });

  it('refuses a file without a LAS header', async () => {
    const short = await refused(new Blob([new Uint8Array(100)]));
    expect(short.code).toBe('LAS_HEADER_MISSING');
    const text = await refused(new Blob(['x,y,z\n'.repeat(100)]));
    expect(text.code).toBe('LAS_HEADER_MISSING');
    expect(text.field).toBe('header.signature');
  });

  it('refuses inconsistent headers as invalid files, naming the field', async () => {
    const version = await refused(await autzenWith((v) => v.setUint8(24, 2)));
    expect([version.code, version.field, version.offset]).toEqual(['FILE_INVALID', 'header.version', 24]);
    const format = await refused(await autzenWith((v) => v.setUint8(104, 12)));
    expect(format.field).toBe('header.pointFormat');
    const record = await refused(await autzenWith((v) => v.setUint16(105, 20, true)));
    expect(record.field).toBe('header.pointRecordLength');
    const scale = await refused(await autzenWith((v) => v.setFloat64(139, 0, true)));
    expect(scale.field).toBe('header.scale.y');
    const bounds = await refused(await autzenWith((v) => v.setFloat64(211, 0, true)));
    expect(bounds.field).toBe('header.minZ');
    const headerSize = await refused(await autzenWith((v) => v.setUint16(94, 100, true)));
    expect(headerSize.field).toBe('header.headerSize');
    const empty = await refused(await autzenWith((v) => v.setUint32(107, 0, true)));
    expect(empty.field).toBe('header.pointCount');
  });

  it('refuses a truncated uncompressed file', async () => {
    const err = await refused(await autzenWith(() => {}, 100_000));
    expect(err.code).toBe('FILE_INVALID');
    expect(err.field).toBe('header.pointCount');
    expect(err.message).toContain('truncated');
  });
});

describe('parseLasHeader', () => {
  it('needs the whole LAS 1.4 header', async () => {
    const head = new Uint8Array(300);
    head.set([76, 65, 83, 70], 0);
    head[24] = 1;
    head[25] = 4;
    new DataView(head.buffer).setUint16(94, 375, true);
    await expect(parseLasHeader(head, 10_000, async () => new Uint8Array())).rejects.toMatchObject({
      code: 'LAS_HEADER_MISSING',
    });
  });
});
