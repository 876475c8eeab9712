// Test support: new LAS 1.4 chunks cut out of real ones. In a layered chunk
// (compressor 3) every attribute group is an independent arithmetic-coded
// layer, so dropping the RGB, NIR or extra-byte layers (and their bytes in
// the raw first point) leaves a valid chunk of point format 6, 7 or 8 with
// fewer extra bytes. That gives the formats the real files lack.

const POINT14_LAYERS = 9;

/** Layers of the colour item of a point format: none (6), RGB (7), RGB and NIR (8). */
function colourLayers(format: number): number {
  return format === 8 ? 2 : format === 7 ? 1 : 0;
}

/** Bytes of the colour item in a record. */
function colourBytes(format: number): number {
  return format === 8 ? 8 : format === 7 ? 6 : 0;
}

/**
 * Rewrites a layered chunk of `fromFormat` (records of `fromLength` bytes)
 * as one of `toFormat` (6-8, with no more colour than the source) keeping the
 * extra bytes listed in `keepExtra` (indices into the source's extra bytes).
 * Returns the chunk and its record length.
 */
export function reshapeLayeredChunk(
  chunk: Uint8Array,
  fromFormat: number,
  fromLength: number,
  toFormat: number,
  keepExtra: number[],
): { chunk: Uint8Array; recordLength: number } {
  const fromBase = 30 + colourBytes(fromFormat);
  const fromExtra = fromLength - fromBase;
  const fromLayers = POINT14_LAYERS + colourLayers(fromFormat) + fromExtra;
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const sizes = Array.from({ length: fromLayers }, (_, i) => view.getUint32(fromLength + 4 + 4 * i, true));
  const starts: number[] = [];
  let at = fromLength + 4 + 4 * fromLayers;
  for (const size of sizes) {
    starts.push(at);
    at += size;
  }
  // Which source layers, and which bytes of the raw first point, the new chunk keeps.
  const layers = [...Array(POINT14_LAYERS + colourLayers(toFormat)).keys()];
  for (const e of keepExtra) layers.push(POINT14_LAYERS + colourLayers(fromFormat) + e);
  const raw = [...chunk.subarray(0, 30 + colourBytes(toFormat))];
  for (const e of keepExtra) raw.push(chunk[fromBase + e]!);
  const recordLength = raw.length;
  const out = new Uint8Array(recordLength + 4 + 4 * layers.length + layers.reduce((s, l) => s + sizes[l]!, 0));
  const outView = new DataView(out.buffer);
  out.set(raw);
  outView.setUint32(recordLength, view.getUint32(fromLength, true), true);
  let data = recordLength + 4 + 4 * layers.length;
  layers.forEach((l, i) => {
    outView.setUint32(recordLength + 4 + 4 * i, sizes[l]!, true);
    out.set(chunk.subarray(starts[l]!, starts[l]! + sizes[l]!), data);
    data += sizes[l]!;
  });
  return { chunk: out, recordLength };
}
