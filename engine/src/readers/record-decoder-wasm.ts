import type { PointChunk } from '../core/chunk.js';
import { carveColumns, columnBytes, decodeExtraBytes, type RecordLayout } from './record-decoder.js';

/*
 * The LAS reader's record decoder as WebAssembly, generated per record
 * layout and column set: the record length, field offsets, scale, offset and
 * column addresses are constants of a small module (one loop, compiled in
 * about a millisecond) that decodes records into the columns carveColumns
 * lays out. Records are read straight into the module's memory and the
 * chunk's columns are views of that memory, so nothing is copied.
 *
 * Why: the JavaScript loop of decodeRecords spends most of its time in the
 * checks V8 repeats on every typed-array and DataView access (map, detached
 * buffer, bounds); in WebAssembly a load or store is one instruction. The
 * values are the same, bit for bit (same f64 operations in the same order, no
 * fused multiply-add; GPS time copied as raw bits): the tests compare both
 * decoders field by field.
 */

/** The part of the WebAssembly JavaScript API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

// Binary encoding helpers (WebAssembly core specification 1.0, section 5).
const unsignedLeb = (value: number): number[] => {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
};
const signedLeb = (value: number): number[] => {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
};
const name = (text: string) => [...unsignedLeb(text.length), ...new TextEncoder().encode(text)];
const section = (id: number, body: number[]) => [id, ...unsignedLeb(body.length), ...body];

const I32_TYPE = 0x7f;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, ...unsignedLeb(local)],
  set: (local: number) => [0x21, ...unsignedLeb(local)],
  tee: (local: number) => [0x22, ...unsignedLeb(local)],
  i32: (value: number) => [0x41, ...signedLeb(value)],
  f64: (value: number) => [0x44, ...new Uint8Array(new Float64Array([value]).buffer)],
  // Memory access: opcode, alignment hint (log2; 0 as records are unaligned), offset.
  i32Load: (offset: number) => [0x28, 0, ...unsignedLeb(offset)],
  i64Load: (offset: number) => [0x29, 0, ...unsignedLeb(offset)],
  i32Load8s: (offset: number) => [0x2c, 0, ...unsignedLeb(offset)],
  i32Load16u: (offset: number) => [0x2f, 0, ...unsignedLeb(offset)],
  // Column stores (opcode, alignment; the offset follows): aligned, as carveColumns aligns every column.
  i64Store: [0x37, 3],
  f32Store: [0x38, 2],
  f64Store: [0x39, 3],
  i32Store8: [0x3a, 0],
  i32Store16: [0x3b, 1],
  i32Eqz: [0x45],
  i32LtU: [0x49],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32And: [0x71],
  i32Shl: [0x74],
  i32ShrS: [0x75],
  i32ShrU: [0x76],
  f64Add: [0xa0],
  f64Mul: [0xa2],
  f32DemoteF64: [0xb6],
  f32ConvertI32S: [0xb2],
  f64ConvertI32S: [0xb7],
};

/**
 * The module for one layout and one column set: imports its memory as
 * env.memory and exports `decode(records, count)`: decodes `count`
 * records at byte `records` into the columns carveColumns lays out from byte
 * `columnsAt`, `capacity` values per column. The column offsets are
 * constants of the code (store offsets), so the loop keeps no pointer per
 * column: four running indices (bytes per value 1, 2, 4, 8) and the record.
 */
function moduleBytes(layout: RecordLayout, columnsAt: number, capacity: number): Uint8Array {
  const { extended, gpsTime: gpsAt, rgb: rgbAt, nir: nirAt } = layout.layout;
  const length = layout.recordLength;
  const [sx, sy, sz] = layout.scale;
  const [ox, oy, oz] = layout.offset;

  // Locals: the two parameters, then the indices and two words of a record.
  const RECORD = 0;
  const COUNT = 1;
  let nextLocal = 2;
  const local = () => nextLocal++;
  const i1 = local();
  const i2 = local();
  const i4 = local();
  const i8 = local();
  const word = local();
  const word2 = local();
  // Byte offset of every column, in carveColumns order.
  let at = columnsAt;
  const columns = (n: number, size: number) =>
    Array.from({ length: n }, () => {
      const offset = at;
      at += size * capacity;
      return offset;
    });
  const eightByte = columns(gpsAt >= 0 ? 4 : 3, 8);
  const [scanAngle] = columns(1, 4) as [number];
  const twoByte = columns(2 + (rgbAt >= 0 ? 3 : 0) + (nirAt >= 0 ? 1 : 0), 2);
  const oneByte = columns(extended ? 8 : 7, 1);

  const code: number[] = [];
  const field = (offset: number, load: (offset: number) => number[]) => [...op.get(RECORD), ...load(offset)];
  // Stores at index + column offset: [index, value, store opcode, alignment, offset].
  const store = (column: number, index: number, value: number[], [opcode, alignment]: readonly number[]) =>
    code.push(...op.get(index), ...value, opcode!, alignment!, ...unsignedLeb(column));
  const coordinate = (offset: number, scale: number, shift: number) => [
    ...field(offset, op.i32Load),
    ...op.f64ConvertI32S,
    ...op.f64(scale),
    ...op.f64Mul,
    ...op.f64(shift),
    ...op.f64Add,
  ];
  const bits = (shift: number, mask: number) => [
    ...op.get(word),
    ...op.i32(shift),
    ...op.i32ShrU,
    ...op.i32(mask),
    ...op.i32And,
  ];

  code.push(...op.block, ...op.get(COUNT), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  store(eightByte[0]!, i8, coordinate(0, sx, ox), op.f64Store);
  store(eightByte[1]!, i8, coordinate(4, sy, oy), op.f64Store);
  store(eightByte[2]!, i8, coordinate(8, sz, oz), op.f64Store);
  if (gpsAt >= 0) store(eightByte[3]!, i8, field(gpsAt, op.i64Load), op.i64Store);
  store(twoByte[0]!, i2, field(12, op.i32Load16u), op.i32Store16);
  // Bytes 14-17 as one word, as decodeRecords reads them.
  code.push(...field(14, op.i32Load), ...op.set(word));
  if (extended) {
    code.push(...field(18, op.i32Load), ...op.set(word2));
    const angle = [...op.get(word2), ...op.i32(16), ...op.i32Shl, ...op.i32(16), ...op.i32ShrS];
    store(
      scanAngle,
      i4,
      [...angle, ...op.f64ConvertI32S, ...op.f64(0.006), ...op.f64Mul, ...op.f32DemoteF64],
      op.f32Store,
    );
    store(twoByte[1]!, i2, [...op.get(word2), ...op.i32(16), ...op.i32ShrU], op.i32Store16);
    // return number, number of returns, classification, class flags, scan direction, edge, user data, channel
    const values = [
      bits(0, 15),
      bits(4, 15),
      bits(16, 255),
      bits(8, 15),
      bits(14, 1),
      bits(15, 1),
      bits(24, 255),
      bits(12, 3),
    ];
    for (const [k, value] of values.entries()) store(oneByte[k]!, i1, value, op.i32Store8);
  } else {
    store(scanAngle, i4, [...field(16, op.i32Load8s), ...op.f32ConvertI32S], op.f32Store);
    store(twoByte[1]!, i2, field(18, op.i32Load16u), op.i32Store16);
    const values = [bits(0, 7), bits(3, 7), bits(8, 31), bits(13, 7), bits(6, 1), bits(7, 1), bits(24, 255)];
    for (const [k, value] of values.entries()) store(oneByte[k]!, i1, value, op.i32Store8);
  }
  let nextTwo = 2;
  if (rgbAt >= 0)
    for (let c = 0; c < 3; c++) store(twoByte[nextTwo++]!, i2, field(rgbAt + 2 * c, op.i32Load16u), op.i32Store16);
  if (nirAt >= 0) store(twoByte[nextTwo++]!, i2, field(nirAt, op.i32Load16u), op.i32Store16);
  // Next record; loop while i < count.
  for (const [counter, step] of [
    [RECORD, length],
    [i2, 2],
    [i4, 4],
    [i8, 8],
  ] as const)
    code.push(...op.get(counter), ...op.i32(step), ...op.i32Add, ...op.set(counter));
  code.push(...op.get(i1), ...op.i32(1), ...op.i32Add, ...op.tee(i1), ...op.get(COUNT), ...op.i32LtU, ...op.brIf(0));
  code.push(...op.end, ...op.end, ...op.end);

  const body = [1, ...unsignedLeb(nextLocal - 2), I32_TYPE, ...code];
  const memoryLimits = [0x00, ...unsignedLeb(1)]; // at least one page, no maximum
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 2, I32_TYPE, I32_TYPE, 0]), // type: (i32, i32) -> ()
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, ...memoryLimits]), // import env.memory
    ...section(3, [1, 0]), // one function of type 0
    ...section(7, [1, ...name('decode'), 0x00, 0]), // export it as "decode"
    ...section(10, [1, ...unsignedLeb(body.length), ...body]),
  ]);
}

/** Compiled modules by layout (a process reads few distinct layouts; bounded anyway). */
const modules = new Map<string, object>();

function compiled(layout: RecordLayout, columnsAt: number, capacity: number): object {
  const { layout: fields, recordLength, scale, offset } = layout;
  // Every constant baked into the code; -0 apart from 0 (x * scale + -0 keeps a -0).
  const constants = [...scale, ...offset].map((v) => (Object.is(v, -0) ? '-0' : String(v)));
  const key = [
    columnsAt,
    capacity,
    fields.format,
    fields.gpsTime,
    fields.rgb,
    fields.nir,
    recordLength,
    ...constants,
  ].join(' ');
  let module = modules.get(key);
  if (!module) {
    if (modules.size >= 64) modules.clear();
    module = new wasm.Module(moduleBytes(layout, columnsAt, capacity));
    modules.set(key, module);
  }
  return module;
}

/**
 * A record decoder for one layout with its own memory: `recordBytes` bytes
 * for records (read them straight into {@link bytesAt}), then one set of
 * columns for up to `capacity` points, from byte {@link columnsAt}. A chunk's
 * fixed columns are views of that memory's buffer, which stays the same
 * buffer (the memory never grows): the next decode overwrites them.
 */
export class WasmRecordDecoder {
  readonly memory: WasmMemory;
  /** Byte offset of the column set. */
  readonly columnsAt: number;
  /** Bytes of the column set. */
  readonly columnsBytes: number;
  private readonly run: (records: number, count: number) => void;

  constructor(
    private readonly layout: RecordLayout,
    recordBytes: number,
    readonly capacity: number,
  ) {
    this.columnsAt = Math.ceil(recordBytes / 8) * 8;
    this.columnsBytes = columnBytes(capacity, layout);
    const pages = Math.max(1, Math.ceil((this.columnsAt + this.columnsBytes) / 65536));
    this.memory = new wasm.Memory({ initial: pages });
    const instance = new wasm.Instance(compiled(layout, this.columnsAt, capacity), { env: { memory: this.memory } });
    this.run = instance.exports.decode as (records: number, count: number) => void;
  }

  /** A view of `length` bytes of the memory at `offset`. */
  bytesAt(offset: number, length: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, offset, length);
  }

  /**
   * Decodes `count` (at most `capacity`) records at byte `records` into the
   * column set and returns the chunk: its fixed columns are views of the
   * memory, its extra bytes new arrays.
   */
  decode(records: number, count: number): PointChunk {
    if (count > this.capacity) throw new RangeError(`${count} records for ${this.capacity} columns`);
    this.run(records, count);
    return this.chunkOver(this.memory.buffer, this.columnsAt, records, count);
  }

  /**
   * The chunk of `count` records at byte `records` whose column set is at
   * byte `at` of `buffer` (this memory's, or a copy of the set), with the
   * extra bytes decoded from the records.
   */
  chunkOver(buffer: ArrayBufferLike, at: number, records: number, count: number): PointChunk {
    const chunk = carveColumns(buffer, at, count, this.layout, this.capacity);
    if (this.layout.extraBytes.length > 0)
      chunk.extra = decodeExtraBytes(this.bytesAt(records, count * this.layout.recordLength), count, this.layout);
    return chunk;
  }
}
