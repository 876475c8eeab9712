/**
 * The tiler's own compact point layout: coordinates quantised to 30-bit
 * integers in the octree cube, plus the attributes that end up in the tiles.
 * 21 bytes a point, struct-of-arrays, so buckets on disk and messages to
 * workers are plain column copies.
 */
export interface PointBlock {
  count: number;
  /** Quantised local east, north, up in [0, 2^30). */
  x: Int32Array;
  y: Int32Array;
  z: Int32Array;
  intensity: Uint16Array;
  classification: Uint8Array;
  /** Raw LAS colour (16-bit slots as stored; 8-bit files keep values ≤ 255). */
  red: Uint16Array;
  green: Uint16Array;
  blue: Uint16Array;
}

/** Bytes a point takes in a block. */
export const BYTES_PER_POINT = 21;

/**
 * A zeroed block with room for `capacity` points and `count` = 0: one buffer
 * carved into the columns (one allocation; `shared` puts it in shared memory,
 * which worker threads then read in place instead of copying).
 */
export function allocBlock(capacity: number, shared = false): PointBlock {
  const n = capacity;
  const memory = shared ? new SharedArrayBuffer(n * BYTES_PER_POINT) : new ArrayBuffer(n * BYTES_PER_POINT);
  // 4-byte columns first, then 2-byte, then 1-byte: every view is aligned.
  return {
    count: 0,
    x: new Int32Array(memory, 0, n),
    y: new Int32Array(memory, 4 * n, n),
    z: new Int32Array(memory, 8 * n, n),
    intensity: new Uint16Array(memory, 12 * n, n),
    red: new Uint16Array(memory, 14 * n, n),
    green: new Uint16Array(memory, 16 * n, n),
    blue: new Uint16Array(memory, 18 * n, n),
    classification: new Uint8Array(memory, 20 * n, n),
  };
}

/** Points `start..end` of a block as views (no copy). */
export function blockRange(block: PointBlock, start: number, end: number): PointBlock {
  return {
    count: end - start,
    x: block.x.subarray(start, end),
    y: block.y.subarray(start, end),
    z: block.z.subarray(start, end),
    intensity: block.intensity.subarray(start, end),
    classification: block.classification.subarray(start, end),
    red: block.red.subarray(start, end),
    green: block.green.subarray(start, end),
    blue: block.blue.subarray(start, end),
  };
}

/** A new block holding the points `indices[start..end)` of `block`, in that order. */
export function gatherBlock(block: PointBlock, indices: Uint32Array, start = 0, end = indices.length): PointBlock {
  const n = end - start;
  const out = allocBlock(n);
  for (let j = 0; j < n; j++) {
    const i = indices[start + j]!;
    out.x[j] = block.x[i]!;
    out.y[j] = block.y[i]!;
    out.z[j] = block.z[i]!;
    out.intensity[j] = block.intensity[i]!;
    out.classification[j] = block.classification[i]!;
    out.red[j] = block.red[i]!;
    out.green[j] = block.green[i]!;
    out.blue[j] = block.blue[i]!;
  }
  out.count = n;
  return out;
}

/** One block with every point of `blocks`, in order. */
export function concatBlocks(blocks: PointBlock[]): PointBlock {
  if (blocks.length === 1 && blocks[0]!.x.length === blocks[0]!.count) return blocks[0]!;
  const total = blocks.reduce((s, b) => s + b.count, 0);
  const out = allocBlock(total);
  let at = 0;
  for (const b of blocks) {
    const n = b.count;
    out.x.set(b.x.subarray(0, n), at);
    out.y.set(b.y.subarray(0, n), at);
    out.z.set(b.z.subarray(0, n), at);
    out.intensity.set(b.intensity.subarray(0, n), at);
    out.classification.set(b.classification.subarray(0, n), at);
    out.red.set(b.red.subarray(0, n), at);
    out.green.set(b.green.subarray(0, n), at);
    out.blue.set(b.blue.subarray(0, n), at);
    at += n;
  }
  out.count = total;
  return out;
}

/** Bytes of an encoded block's header: `[u32 count][u32 0][f64 order]`. */
export const BLOCK_HEADER_BYTES = 16;

/** Size in bytes of an encoded block of `n` points (8-byte aligned). */
export function encodedSize(n: number): number {
  return BLOCK_HEADER_BYTES + Math.ceil((n * BYTES_PER_POINT) / 8) * 8;
}

function bytesOf(a: Int32Array | Uint16Array | Uint8Array, n: number): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, n * a.BYTES_PER_ELEMENT);
}

/**
 * Encodes the first `block.count` points as
 * `[u32 count][u32 0][f64 order][x][y][z][intensity][red][green][blue][classification][pad]`
 * (little-endian, columns back to back). `order` is where the points came
 * from in the input (the read offset of their chunk): decoding puts blocks
 * back in that order, whatever order the threads appended them in.
 */
export function encodeBlock(block: PointBlock, order = 0): Uint8Array {
  const n = block.count;
  const out = new Uint8Array(encodedSize(n));
  const view = new DataView(out.buffer);
  view.setUint32(0, n, true);
  view.setFloat64(8, order, true);
  let at = BLOCK_HEADER_BYTES;
  for (const col of [
    block.x,
    block.y,
    block.z,
    block.intensity,
    block.red,
    block.green,
    block.blue,
    block.classification,
  ]) {
    const b = bytesOf(col, n);
    out.set(b, at);
    at += b.byteLength;
  }
  return out;
}

/** The header of the encoded block at byte `at`: its point count and order. */
export function blockHeader(view: DataView, at: number): { n: number; order: number } {
  return { n: view.getUint32(at, true), order: view.getFloat64(at + 8, true) };
}

/**
 * Decodes concatenations of encoded blocks (bucket files, one per thread that
 * wrote the bucket) into one block, the blocks sorted by their order (ties
 * keep file order). Throws when the bytes are truncated (a bucket file is
 * always ours, so this means a disk problem).
 */
export function decodeBlocks(files: Uint8Array | Uint8Array[]): PointBlock {
  const blocks: { bytes: Uint8Array; at: number; n: number; order: number }[] = [];
  let total = 0;
  for (const bytes of Array.isArray(files) ? files : [files]) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < bytes.byteLength; ) {
      if (at + BLOCK_HEADER_BYTES > bytes.byteLength) throw new Error(`bucket truncated at byte ${at}`);
      const { n, order } = blockHeader(view, at);
      blocks.push({ bytes, at, n, order });
      total += n;
      at += encodedSize(n);
      if (at > bytes.byteLength) throw new Error(`bucket block of ${n} points truncated at byte ${at}`);
    }
  }
  blocks.sort((p, q) => p.order - q.order);
  const out = allocBlock(total);
  let dst = 0;
  for (const { bytes, at, n } of blocks) {
    let src = at + BLOCK_HEADER_BYTES;
    for (const col of [out.x, out.y, out.z, out.intensity, out.red, out.green, out.blue, out.classification]) {
      const len = n * col.BYTES_PER_ELEMENT;
      new Uint8Array(col.buffer, col.byteOffset + dst * col.BYTES_PER_ELEMENT, len).set(bytes.subarray(src, src + len));
      src += len;
    }
    dst += n;
  }
  out.count = total;
  return out;
}
