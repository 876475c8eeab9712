import { corridorScene } from '@nuage/fixtures/synthetic/corridor-scene.js';
import { describe, expect, it } from 'vitest';
import { classifyCloud } from './classify.filter.js';
import { runWiresTask, WIRE_MIN_HEIGHT, wireCandidates } from './classify-wires.task.js';
import { findWires } from './wires.filter.js';

describe('wire search on the candidates only', () => {
  it('gives findWires’s classes on the whole cloud, point for point', () => {
    const { chunk } = corridorScene();
    const { hag, ground } = classifyCloud(chunk, { unitToMetre: 1 });
    const options = { unitToMetre: 1, verticalUnitToMetre: 1, minHeight: WIRE_MIN_HEIGHT };
    const whole = findWires(chunk, hag, ground, options).classes;
    const { task, members } = wireCandidates(chunk, hag, ground, options);
    expect(members[0]).toBe(0);
    expect(members.length).toBeLessThan(chunk.count / 2);
    const found = runWiresTask(task);
    const mapped = new Uint8Array(chunk.count);
    for (let k = 0; k < members.length; k++) mapped[members[k]!] = found[k]!;
    let wires = 0;
    let towers = 0;
    let differ = 0;
    for (let i = 0; i < chunk.count; i++) {
      wires += whole[i] === 14 ? 1 : 0;
      towers += whole[i] === 15 ? 1 : 0;
      differ += whole[i] !== mapped[i] ? 1 : 0;
    }
    expect(wires).toBeGreaterThan(100);
    expect(towers).toBeGreaterThan(10);
    expect(differ).toBe(0);
  });
});
