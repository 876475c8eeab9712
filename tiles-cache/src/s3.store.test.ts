import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { openStore } from './open-store.js';
import { runStoreConformance } from './store.conformance.js';

let bucketCounter = 0;

/** Starts s3rver on a random loopback port with a fresh bucket; STORAGE_URL style config. */
async function startEmulator(): Promise<{ storageUrl: string; stop: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-s3rver-'));
  const bucket = `nuage-test-${++bucketCounter}`;
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  return {
    storageUrl: `s3://${bucket}/some/prefix?endpoint=http://127.0.0.1:${address.port}&region=us-east-1`,
    stop: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

runStoreConformance('s3 (s3rver)', async () => {
  const { storageUrl, stop } = await startEmulator();
  return { store: openStore({ storageUrl, s3: { credentials }, memory: false }), cleanup: stop };
});

runStoreConformance('memory front over s3 (s3rver)', async () => {
  const { storageUrl, stop } = await startEmulator();
  return { store: openStore({ storageUrl, s3: { credentials }, memory: { maxBytes: 100_000 } }), cleanup: stop };
});
