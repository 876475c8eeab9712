import { describe, expect, it } from 'vitest';
import { FsStore } from './fs.store.js';
import { MemoryFrontStore } from './memory-front.store.js';
import { openStore } from './open-store.js';
import { S3Store } from './s3.store.js';

describe('openStore', () => {
  it('opens a folder by default and an S3 bucket for s3:// URLs', () => {
    const fs = openStore({ storageUrl: '/tmp/nuage-files', memory: false });
    expect(fs).toBeInstanceOf(FsStore);
    expect((fs as FsStore).root).toBe('/tmp/nuage-files');
    expect(openStore({ storageUrl: 'file:///tmp/x', memory: false })).toBeInstanceOf(FsStore);
    const s3 = openStore({ storageUrl: 's3://my-bucket/nuage/prod/?endpoint=http://127.0.0.1:9000', memory: false });
    expect(s3).toBeInstanceOf(S3Store);
    expect((s3 as S3Store).bucket).toBe('my-bucket');
    expect((s3 as S3Store).prefix).toBe('nuage/prod/');
    expect(openStore({ storageUrl: '/tmp/y' })).toBeInstanceOf(MemoryFrontStore);
  });

  it('rejects unusable URLs with a typed error', () => {
    expect(() => openStore({ storageUrl: 'ftp://host/x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_STORAGE_URL' }),
    );
    expect(() => openStore({ storageUrl: 's3://UPPER_case/x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_STORAGE_URL' }),
    );
  });
});
