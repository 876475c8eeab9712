/**
 * Memory high-water marks of this process, for the per-product figures of a
 * run. With NUAGE_PRODUCT_PEAKS=1 (the pipeline bench sets it) the peak
 * resident set (Linux VmHWM) is reset before each product, so each product's
 * peak is its own; this also resets the peak that getrusage and /usr/bin/time
 * report for the whole process, hence opt-in. Otherwise the peak is the
 * process's life-long one.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const MB = 2 ** 20;

/** Starts a new peak-RSS window when NUAGE_PRODUCT_PEAKS=1 (Linux: writes 5 to /proc/self/clear_refs). */
export function resetPeakRss(): void {
  if (process.env.NUAGE_PRODUCT_PEAKS !== '1') return;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not allowed: the peak stays the process's life-long one.
  }
}

/** Peak resident set since the last {@link resetPeakRss} (or since start), MB. */
export function peakRssMb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Math.round(Number(m[1]) / 1024);
  } catch {
    // Falls back on getrusage below.
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Peak RSS of a window, with the resident set, JS heap and typed-array memory when it ended, MB. */
export interface MemoryFigures {
  peakRssMb: number;
  rssMb: number;
  heapUsedMb: number;
  arrayBuffersMb: number;
}

/** The figures of the window opened by the last {@link resetPeakRss}. */
export function memoryFigures(): MemoryFigures {
  const m = process.memoryUsage();
  return {
    peakRssMb: peakRssMb(),
    rssMb: Math.round(m.rss / MB),
    heapUsedMb: Math.round(m.heapUsed / MB),
    arrayBuffersMb: Math.round(m.arrayBuffers / MB),
  };
}
