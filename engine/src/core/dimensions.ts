/**
 * The point dimensions a chunk may carry, described once. Coordinates are
 * scaled values (metres or feet, in the chunk's CRS), never raw integers.
 */
export const DIMENSIONS = {
  x: { type: Float64Array, description: 'X in the chunk CRS' },
  y: { type: Float64Array, description: 'Y in the chunk CRS' },
  z: { type: Float64Array, description: 'Z (elevation) in the chunk CRS' },
  intensity: { type: Uint16Array, description: 'pulse return magnitude' },
  returnNumber: { type: Uint8Array, description: 'return number, 1-based (1..15)' },
  numberOfReturns: { type: Uint8Array, description: 'number of returns of the pulse (1..15)' },
  classification: { type: Uint8Array, description: 'ASPRS class code (0..255)' },
  classFlags: { type: Uint8Array, description: 'bit 0 synthetic, 1 key-point, 2 withheld, 3 overlap' },
  scannerChannel: { type: Uint8Array, description: 'scanner channel (PDRF 6-10)' },
  scanDirection: { type: Uint8Array, description: 'scan direction flag (0/1)' },
  edgeOfFlightLine: { type: Uint8Array, description: 'edge of flight line flag (0/1)' },
  scanAngle: { type: Float32Array, description: 'scan angle in degrees' },
  userData: { type: Uint8Array, description: 'user data byte' },
  pointSourceId: { type: Uint16Array, description: 'flight line / source id' },
  gpsTime: { type: Float64Array, description: 'GPS time' },
  red: { type: Uint16Array, description: 'red (16-bit scale as stored)' },
  green: { type: Uint16Array, description: 'green (16-bit scale as stored)' },
  blue: { type: Uint16Array, description: 'blue (16-bit scale as stored)' },
  nir: { type: Uint16Array, description: 'near infrared' },
} as const;

export type DimensionName = keyof typeof DIMENSIONS;
export type DimensionArray<N extends DimensionName> = InstanceType<(typeof DIMENSIONS)[N]['type']>;

/** ASPRS class names for the codes the product lists (spec §3), plus 8 and 12 for completeness. */
export const CLASS_NAMES: Record<number, string> = {
  0: 'never classified',
  1: 'unclassified',
  2: 'ground',
  3: 'low vegetation',
  4: 'medium vegetation',
  5: 'high vegetation',
  6: 'building',
  7: 'low point',
  8: 'model key-point',
  9: 'water',
  10: 'rail',
  11: 'road surface',
  12: 'overlap',
  13: 'wire guard',
  14: 'wire conductor',
  15: 'transmission tower',
  16: 'wire structure',
  17: 'bridge deck',
  18: 'high noise',
  19: 'overhead structure',
  20: 'ignored ground',
  21: 'snow',
  22: 'temporal exclusion',
  23: 'roof object',
  24: 'vehicle',
  25: 'pole',
  26: 'fence or wall',
  27: 'hedge',
  28: 'solar panel',
};
