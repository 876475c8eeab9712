/**
 * Property-based fuzzing of the readers: mutate the real files' headers, VLRs
 * and lengths and check that nothing but InvalidInput is ever thrown, that no
 * case takes over 2 s and that memory stays bounded. 10,000 cases by default
 * (NUAGE_FUZZ_RUNS overrides); each case reads the header and at most two
 * chunks from an in-memory copy (LAS copies cut to 3,000 points).
 * Needs the shared real files (left out without them, see real-data-gate.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { realFile } from '@nuage/fixtures/real-data.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../src/core/errors.js';
import { openPointCloudBytes } from '../src/readers/index.js';

const RUNS = Number(process.env.NUAGE_FUZZ_RUNS ?? 10_000);

interface Base {
  name: string;
  bytes: Uint8Array;
  /** End of the header + VLR region (where mutations concentrate). */
  headEnd: number;
  /** Offsets of each VLR header's 16-bit length field. */
  vlrLengthFields: number[];
}

/** LAS files cut to `keep` points (counts patched); LAZ files whole (they are small). */
function loadBase(name: string, keep = 3000): Base {
  const original = Buffer.from(readFileSync(realFile(name)));
  const headerSize = original.readUInt16LE(94);
  const pointDataOffset = original.readUInt32LE(96);
  const vlrCount = original.readUInt32LE(100);
  const vlrLengthFields: number[] = [];
  for (let i = 0, at = headerSize; i < vlrCount; i++) {
    vlrLengthFields.push(at + 20);
    at += 54 + original.readUInt16LE(at + 20);
  }
  const compressed = (original[104]! & 0x80) !== 0;
  let bytes: Buffer = original;
  if (!compressed) {
    const recordLength = original.readUInt16LE(105);
    const count = Math.min(keep, original.readUInt32LE(107) || Number(original.readBigUInt64LE(247)));
    bytes = Buffer.from(original.subarray(0, pointDataOffset + count * recordLength));
    if (bytes.readUInt32LE(107) !== 0) bytes.writeUInt32LE(count, 107);
    if (bytes[25]! >= 4) {
      bytes.writeBigUInt64LE(BigInt(count), 247);
      bytes.writeBigUInt64LE(0n, 235);
      bytes.writeUInt32LE(0, 243);
    }
  }
  return { name, bytes, headEnd: pointDataOffset, vlrLengthFields };
}

/** Header fields: [offset, width in bytes, kind]. */
const FIELDS: Array<[number, number, 'u' | 'f']> = [
  [24, 1, 'u'],
  [25, 1, 'u'],
  [94, 2, 'u'],
  [96, 4, 'u'],
  [100, 4, 'u'],
  [104, 1, 'u'],
  [105, 2, 'u'],
  [107, 4, 'u'],
  [131, 8, 'f'],
  [139, 8, 'f'],
  [147, 8, 'f'],
  [155, 8, 'f'],
  [163, 8, 'f'],
  [171, 8, 'f'],
  [179, 8, 'f'],
  [187, 8, 'f'],
  [195, 8, 'f'],
  [203, 8, 'f'],
  [211, 8, 'f'],
  [219, 8, 'f'],
  [235, 8, 'u'],
  [243, 4, 'u'],
  [247, 8, 'u'],
];

type Mutation =
  | { kind: 'byte'; at: number; value: number }
  | { kind: 'field'; field: number; value: number }
  | { kind: 'vlrLength'; vlr: number; value: number }
  | { kind: 'truncate'; fraction: number };

const INTERESTING_INTS = [
  0,
  1,
  2,
  3,
  6,
  7,
  8,
  10,
  11,
  20,
  26,
  28,
  34,
  127,
  128,
  255,
  256,
  375,
  65535,
  2 ** 31 - 1,
  2 ** 32 - 1,
];
const INTERESTING_FLOATS = [
  0,
  -0,
  1e-300,
  -1,
  1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  0.01,
  1e9,
];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant('field' as const),
    field: fc.nat({ max: FIELDS.length - 1 }),
    value: fc.oneof(
      fc.constantFrom(...INTERESTING_INTS),
      fc.nat(),
      fc.constantFrom(...INTERESTING_FLOATS),
      fc.double(),
    ),
  }),
  fc.record({
    kind: fc.constant('vlrLength' as const),
    vlr: fc.nat(),
    value: fc.oneof(fc.constantFrom(0, 1, 53, 54, 192, 65535), fc.nat({ max: 65535 })),
  }),
  fc.record({ kind: fc.constant('truncate' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

function apply(base: Base, mutations: Mutation[]): Uint8Array {
  let bytes = Buffer.from(base.bytes);
  for (const m of mutations) {
    if (m.kind === 'byte') {
      const span = Math.min(bytes.length, base.headEnd + 64);
      if (span > 0) bytes[m.at % span] = m.value;
    } else if (m.kind === 'field') {
      const [at, width, type] = FIELDS[m.field]!;
      if (at + width > bytes.length) continue;
      if (type === 'f') bytes.writeDoubleLE(m.value, at);
      else {
        const v = Number.isFinite(m.value) ? Math.abs(Math.trunc(m.value)) : 0;
        if (width === 1) bytes[at] = v & 255;
        else if (width === 2) bytes.writeUInt16LE(v & 0xffff, at);
        else if (width === 4) bytes.writeUInt32LE(v % 2 ** 32, at);
        else
          bytes.writeBigUInt64LE(
            (BigInt(Math.min(v, Number.MAX_SAFE_INTEGER)) * (v > 2 ** 40 ? 4096n : 1n)) % 2n ** 64n,
            at,
          );
      }
    } else if (m.kind === 'vlrLength') {
      if (base.vlrLengthFields.length === 0) continue;
      const at = base.vlrLengthFields[m.vlr % base.vlrLengthFields.length]!;
      if (at + 2 <= bytes.length) bytes.writeUInt16LE(m.value, at);
    } else {
      bytes = bytes.subarray(0, Math.floor(bytes.length * m.fraction));
    }
  }
  return bytes;
}

async function readCase(bytes: Uint8Array): Promise<void> {
  const reader = await openPointCloudBytes(bytes);
  try {
    let chunks = 0;
    for await (const _ of reader.read({ chunkSize: 5000, workers: 0 })) {
      if (++chunks >= 2) break;
    }
  } finally {
    await reader.close();
  }
}

const BASES = [
  'mvk-thin.las',
  'warsaw_small.las',
  'autzen_trim.las',
  'file_with_both_wkt_and_geotiff_vlrs.las',
  'MixedConifer.laz',
  'Megaplot.laz',
].filter((n) => existsSync(realFile(n)));

describe('reader fuzzing', () => {
  it(`throws nothing but InvalidInput over ${RUNS} mutated files`, async () => {
    const bases = BASES.map((n) => loadBase(n));
    let slowest = 0;
    let slowestCase = '';
    let rejected = 0;
    let accepted = 0;
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: bases.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (which, mutations) => {
          const bytes = apply(bases[which]!, mutations);
          const started = performance.now();
          try {
            await readCase(bytes);
            accepted++;
          } catch (error) {
            if (!(error instanceof InvalidInput)) throw error;
            // Every rejection names a field, and its message starts with it.
            expect(error.field.length).toBeGreaterThan(0);
            expect(error.message.startsWith(error.field)).toBe(true);
            rejected++;
          }
          const took = performance.now() - started;
          if (took > slowest) {
            slowest = took;
            slowestCase = JSON.stringify({ file: bases[which]!.name, mutations });
          }
          if ((accepted + rejected) % 500 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        },
      ),
      { numRuns: RUNS, seed: Number(process.env.NUAGE_FUZZ_SEED ?? 20261121) },
    );
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    expect(accepted + rejected).toBe(RUNS);
    expect(rejected).toBeGreaterThan(RUNS / 10);
    // Bounds required by the brief (issue 3): no case over 2 s, memory bounded.
    expect(slowest, slowestCase).toBeLessThan(2000);
    expect(rssPeak - rssBefore).toBeLessThan(1024 * 1024 * 1024);
    console.log(
      `fuzz: ${RUNS} cases, ${rejected} rejected, ${accepted} accepted, slowest ${slowest.toFixed(0)} ms, RSS growth ${((rssPeak - rssBefore) / 1e6).toFixed(0)} MB`,
    );
  }, 600_000);

  it('refuses what the upload must refuse, naming the field and the value: scales, offsets, formats, counts', async () => {
    const base = loadBase(BASES.includes('warsaw_small.las') ? 'warsaw_small.las' : BASES[0]!);
    const cases = { scale: 0, offset: 0, format: 0, count: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ kind: fc.constant('scale' as const), axis: fc.nat({ max: 2 }), value: fc.double({ max: 0 }) }),
          fc.record({
            kind: fc.constant('offset' as const),
            axis: fc.nat({ max: 2 }),
            value: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
          }),
          fc.record({ kind: fc.constant('format' as const), value: fc.integer({ min: 11, max: 127 }) }),
          fc.record({ kind: fc.constant('count' as const), extra: fc.integer({ min: 1, max: 2 ** 31 }) }),
        ),
        async (c) => {
          const bytes = Buffer.from(base.bytes);
          let field: string;
          if (c.kind === 'scale') {
            bytes.writeDoubleLE(c.value, 131 + 8 * c.axis);
            field = `header.scale.${'xyz'[c.axis]}`;
          } else if (c.kind === 'offset') {
            bytes.writeDoubleLE(c.value, 155 + 8 * c.axis);
            field = `header.offset.${'xyz'[c.axis]}`;
          } else if (c.kind === 'format') {
            bytes[104] = c.value;
            field = 'header.pointFormat';
          } else {
            bytes.writeUInt32LE(Math.min(2 ** 32 - 1, bytes.readUInt32LE(107) + c.extra), 107);
            field = 'header.pointCount';
          }
          cases[c.kind]++;
          const error = await readCase(bytes).then(
            () => null,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(InvalidInput);
          expect((error as InvalidInput).field).toBe(field);
          // Format 99 is told as 99 (not 99 & 63 = 35).
          if (c.kind === 'format') expect((error as InvalidInput).value).toBe(c.value);
        },
      ),
      { numRuns: 2_000, seed: Number(process.env.NUAGE_FUZZ_SEED ?? 20261121) },
    );
    expect(Object.values(cases).every((n) => n > 100)).toBe(true);
    console.log(`header refusals: 2,000 cases (${JSON.stringify(cases)}), each refused naming its field`);
  }, 600_000);
});
