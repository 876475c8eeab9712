import type { TaskList } from 'graphile-worker';
import type { AppDeps } from '../context.js';
import { billingTask } from './billing.task.js';
import { classificationEditTask } from './classification-edit.task.js';
import { clipTask } from './clip.task.js';
import { metadataExtractionTask } from './metadata-extraction.task.js';
import { processingTask } from './processing.task.js';
import { processingTileTask } from './processing-tiles.js';
import { tilingTask } from './tiling.task.js';

/**
 * Every graphile-worker task, by name. A task module exports a factory taking
 * the process dependencies and the worker's id (its heartbeat row); adding a
 * task is one line here.
 */
export function createTaskList(deps: AppDeps, worker: { workerId: string } = { workerId: 'unknown' }): TaskList {
  return {
    'metadata-extraction': metadataExtractionTask(deps, worker.workerId),
    tiling: tilingTask(deps, worker.workerId),
    processing: processingTask(deps, worker.workerId),
    'processing-tile': processingTileTask(deps, worker.workerId),
    billing: billingTask(deps),
    clip: clipTask(deps),
    'classification-edit': classificationEditTask(deps, worker.workerId),
  };
}
