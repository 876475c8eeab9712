import type { PointChunk } from '../core/chunk.js';
import { enuFrameAt, geodeticToEcef, type LocalFrame, localToEcef } from './local-frame.js';
import type { TilerInput } from './tiler.js';

/** Options of {@link syntheticTilerInput}. */
export interface SyntheticOptions {
  /** Points to generate. */
  count: number;
  /** Square side in metres (points spread over it, terrain-like). */
  side?: number;
  /** Where on Earth (degrees). */
  lon?: number;
  lat?: number;
  chunkSize?: number;
  seed?: number;
  /** Give every point RGB (16-bit values). */
  color?: boolean;
}

/**
 * A deterministic synthetic terrain with trees and buildings in a local
 * east-north-up frame, as a tiler input (tests and benchmarks that must not
 * depend on files). Classification: 2 ground, 5 vegetation, 6 building.
 */
export function syntheticTilerInput(o: SyntheticOptions): TilerInput & { frame: LocalFrame } {
  const side = o.side ?? 1000;
  const chunkSize = o.chunkSize ?? 65536;
  const frame = enuFrameAt(...geodeticToEcef(o.lon ?? 5, o.lat ?? 45, 200));
  const color = o.color ?? true;
  return {
    frame,
    pointCount: o.count,
    bounds: { minX: 0, minY: 0, minZ: -5, maxX: side, maxY: side, maxZ: 60 },
    hasColor: color,
    toEcef(x, y, z, count) {
      for (let i = 0; i < count; i++) {
        const p = localToEcef(frame, x[i]!, y[i]!, z[i]!);
        x[i] = p[0];
        y[i] = p[1];
        z[i] = p[2];
      }
    },
    async *chunks() {
      let s = (o.seed ?? 1) >>> 0 || 1;
      const rnd = (): number => {
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        return (s >>> 0) / 4294967296;
      };
      for (let done = 0; done < o.count; ) {
        const n = Math.min(chunkSize, o.count - done);
        const chunk: PointChunk = {
          count: n,
          x: new Float64Array(n),
          y: new Float64Array(n),
          z: new Float64Array(n),
          intensity: new Uint16Array(n),
          classification: new Uint8Array(n),
          ...(color ? { red: new Uint16Array(n), green: new Uint16Array(n), blue: new Uint16Array(n) } : {}),
        };
        for (let i = 0; i < n; i++) {
          const x = rnd() * side;
          const y = rnd() * side;
          const ground = 3 * Math.sin(x / 50) + 2 * Math.cos(y / 70);
          const kind = rnd();
          let z = ground;
          let cls = 2;
          if (kind > 0.85) {
            z = ground + rnd() * 20;
            cls = 5;
          } else if (kind > 0.75 && (Math.floor(x / 40) + Math.floor(y / 40)) % 3 === 0) {
            z = ground + 10;
            cls = 6;
          }
          chunk.x[i] = x;
          chunk.y[i] = y;
          chunk.z[i] = z;
          chunk.classification![i] = cls;
          chunk.intensity![i] = Math.floor(rnd() * 4000);
          if (color) {
            chunk.red![i] = cls === 5 ? 20000 : 40000;
            chunk.green![i] = cls === 5 ? 50000 : 40000;
            chunk.blue![i] = cls === 6 ? 60000 : 20000;
          }
        }
        done += n;
        yield chunk;
      }
    },
  };
}
