import { parentPort } from 'node:worker_threads';
import { blockBuffers, type TilerTask } from './tiler-protocol.js';
import { runTilerTask } from './tiler-tasks.js';

parentPort!.on('message', async (message: { id: number; task: TilerTask }) => {
  try {
    const reply = await runTilerTask(message.task);
    const transfer = reply.op === 'build' ? blockBuffers(reply.rootPoints) : [];
    parentPort!.postMessage({ id: message.id, reply }, transfer);
  } catch (error) {
    const e = error as Error;
    parentPort!.postMessage({
      id: message.id,
      error: { message: e.message ?? String(error), code: (e as { code?: string }).code },
    });
  }
});
