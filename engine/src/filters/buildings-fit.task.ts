/**
 * A worker thread's share of the roof plane fits (see `fitPlanesParallel`):
 * the slots arrive in shared memory, the fits of one range go back.
 */
import { type FitSlots, fitPlanes, type PlaneFits } from './buildings.js';

/** One range of slots to fit. */
export interface FitTask {
  slots: FitSlots;
  metre: number;
  planarity: number;
  from: number;
  to: number;
  /** When given, only the slots it marks (1) are fitted. */
  only?: Uint8Array | undefined;
}

export function runFitTask(task: FitTask): PlaneFits {
  return fitPlanes(task.slots, task.metre, task.planarity, task.from, task.to, task.only);
}
