import { corridorScene } from '@nuage/fixtures/synthetic/corridor-scene.js';
import { describe, expect, it } from 'vitest';
import { classifyCloud } from './classify.filter.js';
import { dropOpaqueWires, runWiresTask, WIRE_MIN_HEIGHT, wireCandidates } from './classify-wires.task.js';
import { findWires, SHADOW_CELL } from './wires.filter.js';
import { lowestReturns, seenBelow } from './wires-shadow.js';

describe('wire search on the candidates only', () => {
  it('gives findWires’s classes on the whole cloud, point for point', () => {
    const { chunk } = corridorScene();
    const { hag, ground } = classifyCloud(chunk, { unitToMetre: 1 });
    const options = { unitToMetre: 1, verticalUnitToMetre: 1, minHeight: WIRE_MIN_HEIGHT };
    const whole = findWires(chunk, hag, ground, options).classes;
    const { task, members } = wireCandidates(chunk, hag, ground, options);
    expect(members[0]).toBe(0);
    expect(members.length).toBeLessThan(chunk.count / 2);
    // Relative to the cloud's first point, as findWires measures.
    expect(task.x[0]).toBe(0);
    expect(task.x[1]).toBe(chunk.x[members[1]!]! - chunk.x[0]!);
    const found = runWiresTask(task);
    dropOpaqueWires(chunk, members, found, options);
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

  it('drops the wire returns with nothing seen under them, as findWires does', () => {
    // A row of returns 14 m up, over a roof 0.2 m below it (nothing seen under it but near its edges), then over
    // open ground.
    const xs: number[] = [];
    const ys: number[] = [];
    const zs: number[] = [];
    const hags: number[] = [];
    for (let i = 0; i < 120; i++) {
      for (let j = 0; j < 40; j++) {
        const x = i * 0.5;
        const y = j * 0.5;
        const roof = x >= 20 && x < 40 && y >= 5 && y < 15;
        xs.push(x);
        ys.push(y);
        zs.push(roof ? 13.8 : 0);
        hags.push(roof ? 13.8 : 0);
      }
    }
    const ground = xs.length;
    for (let i = 0; i < 60; i++) {
      xs.push(i);
      ys.push(10);
      zs.push(14);
      hags.push(14);
    }
    const count = xs.length;
    const chunk = { count, x: Float64Array.from(xs), y: Float64Array.from(ys), z: Float64Array.from(zs) };
    const hag = Float32Array.from(hags);
    const excluded = new Uint8Array(count);
    for (let i = 0; i < ground; i++) excluded[i] = hags[i] === 0 ? 1 : 0;
    const options = { unitToMetre: 1, minHeight: WIRE_MIN_HEIGHT };
    const { task, members } = wireCandidates(chunk, hag, excluded, options);
    const found = new Uint8Array(members.length);
    for (let k = 0; k < members.length; k++) found[k] = members[k]! >= ground ? 14 : 0;
    dropOpaqueWires(chunk, members, found, options);
    expect(task.x.length).toBe(members.length);
    // Over the roof, more than a metre inside it (x 21 to 38), the row is opaque; elsewhere the ground is seen: as
    // the whole cloud's lowest returns say.
    const table = lowestReturns(chunk.x, chunk.y, chunk.z, count, chunk.x[0]!, chunk.y[0]!, SHADOW_CELL);
    let dropped = 0;
    for (let k = 0; k < members.length; k++) {
      const i = members[k]!;
      if (i < ground) continue;
      const x = chunk.x[i]!;
      expect([x, found[k]]).toEqual([x, x >= 21 && x <= 38 ? 0 : 14]);
      const seen = seenBelow(table, x, chunk.y[i]!, chunk.z[i]!, 1, 0.5);
      expect([x, found[k]]).toEqual([x, seen ? 14 : 0]);
      dropped += found[k] === 0 ? 1 : 0;
    }
    expect(dropped).toBe(18);
  });
});
