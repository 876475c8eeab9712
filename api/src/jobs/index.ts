import type { TaskList } from 'graphile-worker';
import type { AppDeps } from '../context.js';

/**
 * Every graphile-worker task, by name. A task module exports a factory taking
 * the process dependencies; adding a task is one line here.
 */
export function createTaskList(_deps: AppDeps): TaskList {
  return {};
}
