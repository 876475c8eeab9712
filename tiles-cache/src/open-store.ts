import path from 'node:path';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { InvalidStorageUrl } from './errors.js';
import { FsStore } from './fs.store.js';
import { type MemoryFrontOptions, MemoryFrontStore } from './memory-front.store.js';
import { S3Store } from './s3.store.js';
import type { ObjectStore } from './store.js';

export interface OpenStoreOptions {
  /** `file:///abs/dir`, a plain folder path, or `s3://bucket/prefix?endpoint=...&region=...`. Default: `STORAGE_URL`, else `./data/files`. */
  storageUrl?: string;
  /** Extra S3 client settings (credentials in tests); by default the AWS SDK's own chain (env vars, profiles). */
  s3?: S3ClientConfig;
  /** Put a bounded LRU memory front before the backend (false to disable). */
  memory?: MemoryFrontOptions | false;
}

/**
 * Opens the store the deployment is configured for: the local folder by
 * default, an S3-compatible bucket when `STORAGE_URL=s3://bucket/prefix?endpoint=https://...`.
 * Query parameters of an s3 URL: `endpoint`, `region` (default us-east-1),
 * `forcePathStyle` (default true when an endpoint is given).
 *
 * @example
 * const store = openStore({ storageUrl: 's3://nuage/prod?endpoint=http://minio:9000' });
 */
export function openStore(options: OpenStoreOptions = {}): ObjectStore {
  const url = options.storageUrl ?? process.env.STORAGE_URL ?? path.resolve('data', 'files');
  let store: ObjectStore;
  if (url.startsWith('s3://')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidStorageUrl(`STORAGE_URL ${JSON.stringify(url)} is not a URL`);
    }
    const bucket = parsed.hostname;
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new InvalidStorageUrl(`STORAGE_URL bucket ${JSON.stringify(bucket)} is not a valid S3 bucket name`);
    }
    const endpoint = parsed.searchParams.get('endpoint') ?? undefined;
    const region = parsed.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1';
    const fps = parsed.searchParams.get('forcePathStyle');
    store = new S3Store({
      bucket,
      prefix: decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, ''),
      client: {
        region,
        ...(endpoint ? { endpoint } : {}),
        forcePathStyle: fps === null ? endpoint !== undefined : fps === 'true',
        ...options.s3,
      },
    });
  } else if (url.startsWith('file://')) {
    store = new FsStore(new URL(url).pathname);
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new InvalidStorageUrl(
      `STORAGE_URL scheme of ${JSON.stringify(url)} is not supported (use a folder, file:// or s3://)`,
    );
  } else {
    store = new FsStore(url);
  }
  return options.memory === false ? store : new MemoryFrontStore(store, options.memory ?? {});
}
