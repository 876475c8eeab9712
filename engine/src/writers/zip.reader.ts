import { readFileSync } from 'node:fs';
import { crc32, inflateRawSync } from 'node:zlib';

/** One member of a ZIP read by {@link readZip}. */
export interface ZipMember {
  data: Buffer;
  method: number;
  crcOk: boolean;
}

/**
 * Reads every member of a ZIP (stored or deflated, no ZIP64) through its
 * central directory, independent of GDAL: the writers' tests, and the clip job copying a
 * Shapefile set into its zip.
 */
export function readZip(file: string): Map<string, ZipMember> {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file}: no end of central directory`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, ZipMember>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`${file}: bad local header of ${name}`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + compressed);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    if (data.length !== size) throw new Error(`${file}: ${name} is ${data.length} bytes, directory says ${size}`);
    out.set(name, { data, method, crcOk: crc32(data) >>> 0 === crc });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}
