import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from './zip.reader.js';
import { ZipWriter } from './zip.writer.js';

function hasUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('ZipWriter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-zip-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes stored and deflated members, streamed in chunks, with their CRC-32', async () => {
    const file = path.join(dir, 'a.zip');
    const big = Buffer.alloc(3_000_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    function* chunks() {
      for (let i = 0; i < big.length; i += 65_536) yield big.subarray(i, i + 65_536);
    }
    const zip = await ZipWriter.create(file, { date: new Date(2024, 4, 17, 10, 30, 12) });
    await zip.add('layer.cpg', 'UTF-8', { store: true });
    await zip.add('big.bin', chunks());
    await zip.add('empty.txt', Buffer.alloc(0));
    await zip.add('dossier/été.txt', 'accents in the name');
    const bytes = await zip.close();
    expect((await readFile(file)).length).toBe(bytes);

    const members = readZip(file);
    expect([...members.keys()]).toEqual(['layer.cpg', 'big.bin', 'empty.txt', 'dossier/été.txt']);
    expect(members.get('layer.cpg')!.method).toBe(0);
    expect(members.get('layer.cpg')!.data.toString()).toBe('UTF-8');
    expect(members.get('big.bin')!.method).toBe(8);
    expect(members.get('big.bin')!.data.equals(big)).toBe(true);
    expect(members.get('empty.txt')!.data.length).toBe(0);
    expect(members.get('dossier/été.txt')!.data.toString()).toBe('accents in the name');
    for (const m of members.values()) expect(m.crcOk).toBe(true);
    expect(bytes).toBeLessThan(big.length);
  });

  it.skipIf(!hasUnzip())('passes `unzip -t`', async () => {
    const file = path.join(dir, 'b.zip');
    const zip = await ZipWriter.create(file);
    await zip.add('a.txt', 'hello '.repeat(1000));
    await zip.add('b.txt', 'world', { store: true });
    await zip.close();
    const report = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
    expect(report).toMatch(/No errors detected/);
  });
});
