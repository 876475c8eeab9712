/**
 * Work spread over frames: one task per frame, each after the frame before
 * it was drawn, so that a scene opened with many layers (the 3D view opened
 * from the 2D map with every layer ticked) builds them one by one and the
 * page answers in between, instead of building every layer (and compiling
 * every shader of them) in one frame that, on a software GPU, blocked the
 * page for half a minute.
 */

/** What the queue needs of a Cesium scene: a redraw on request and an event after each drawn frame. */
export interface FrameSource {
  requestRender(): void;
  postRender: { addEventListener(listener: () => void): () => void };
}

export interface FrameQueue {
  /** Runs `task` on a later frame, after the tasks queued before it. */
  push(task: () => void): void;
  /** Tasks not run yet. */
  readonly size: number;
  /** Drops the tasks not run yet and stops listening. */
  destroy(): void;
}

/**
 * A queue that runs one task after each frame the scene draws (and asks for
 * the next frame while tasks wait). A task that throws is reported to
 * `onError` and the queue goes on.
 *
 * @example
 * const queue = createFrameQueue(viewer.scene, console.error);
 * queue.push(() => scene.primitives.add(buildLayer()));
 */
export function createFrameQueue(scene: FrameSource, onError: (err: unknown) => void): FrameQueue {
  const tasks: Array<() => void> = [];
  let destroyed = false;
  /** A task is waiting for its turn (one at a time, whatever the frames drawn meanwhile). */
  let scheduled = false;
  const off = scene.postRender.addEventListener(() => {
    if (scheduled || tasks.length === 0) return;
    scheduled = true;
    // Run outside the frame that just ended: the next frame draws what it built.
    setTimeout(() => {
      scheduled = false;
      const task = tasks.shift();
      if (destroyed || !task) return;
      try {
        task();
      } catch (err) {
        onError(err);
      }
      scene.requestRender();
    }, 0);
  });
  return {
    push(task) {
      if (destroyed) return;
      tasks.push(task);
      scene.requestRender();
    },
    get size() {
      return tasks.length;
    },
    destroy() {
      destroyed = true;
      tasks.length = 0;
      off();
    },
  };
}
