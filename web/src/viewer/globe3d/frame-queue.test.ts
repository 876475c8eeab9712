import { describe, expect, it } from 'vitest';
import { createFrameQueue, type FrameSource } from './frame-queue.js';

/** A scene that draws a frame when asked, as Cesium's request-render mode does (drawn by `draw()`). */
function sceneOf() {
  const listeners = new Set<() => void>();
  const scene = {
    requested: 0,
    requestRender() {
      scene.requested++;
    },
    postRender: {
      addEventListener(listener: () => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    listeners,
    /** Draws one frame (if one was asked for) and lets the tasks it scheduled run. */
    async draw() {
      if (scene.requested === 0) return false;
      scene.requested = 0;
      for (const l of listeners) l();
      await new Promise((r) => setTimeout(r, 0));
      return true;
    },
  };
  return scene satisfies FrameSource;
}

describe('createFrameQueue', () => {
  it('runs one task per drawn frame, in order, asking for frames until the queue is empty', async () => {
    const scene = sceneOf();
    const errors: unknown[] = [];
    const queue = createFrameQueue(scene, (e) => errors.push(e));
    const ran: string[] = [];
    queue.push(() => ran.push('a'));
    queue.push(() => {
      throw new Error('b failed');
    });
    queue.push(() => ran.push('c'));
    expect(queue.size).toBe(3);
    expect(ran).toEqual([]);
    const perFrame: string[][] = [];
    while (await scene.draw()) perFrame.push([...ran]);
    expect(perFrame).toEqual([['a'], ['a'], ['a', 'c'], ['a', 'c']]);
    expect((errors[0] as Error).message).toBe('b failed');
    expect(queue.size).toBe(0);
  });

  it('runs nothing more once destroyed', async () => {
    const scene = sceneOf();
    const queue = createFrameQueue(scene, () => {});
    const ran: number[] = [];
    queue.push(() => ran.push(1));
    queue.push(() => ran.push(2));
    await scene.draw();
    queue.destroy();
    queue.push(() => ran.push(3));
    scene.requested = 1;
    await scene.draw();
    expect(ran).toEqual([1]);
    expect(scene.listeners.size).toBe(0);
  });
});
