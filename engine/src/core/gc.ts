import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection now, where the runtime allows it (else nothing).
 *
 * A product thread's or the main thread's JavaScript heap is small (tens of
 * MB) while the typed arrays it held are large (a classified cloud, a
 * gigabyte of contour lines in shared memory): V8 sees no pressure in its heap
 * and may not collect for minutes, so arrays no longer used stay in memory
 * beside the next product's (a peak 1 GB higher for a 1 GB survey). Called
 * between products, it frees them when they are done with.
 *
 * @example
 * collectGarbage(); // after a product's result was handed on
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      // The flag only exposes `gc` to contexts made after it; this one takes it.
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}

let gc: (() => void) | null | undefined;
