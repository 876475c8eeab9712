import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { InvalidRange, ObjectNotFound } from './errors.js';
import { checkKey, checkPrefix } from './keys.js';
import {
  type Body,
  bodyChunks,
  type GetOptions,
  type GetResult,
  type ObjectInfo,
  type ObjectStore,
  type PutOptions,
  resolveRange,
} from './store.js';

/** Parts of a multipart upload: S3's minimum part size is 5 MiB; 8 MiB keeps memory per put small. */
const PART_SIZE = 8 * 1024 * 1024;

export interface S3StoreOptions {
  bucket: string;
  /** Key prefix inside the bucket (no leading or trailing slash), e.g. `nuage/prod`. */
  prefix?: string;
  /** Client settings: endpoint, region, credentials, forcePathStyle. */
  client?: S3ClientConfig;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * S3-compatible backend (AWS S3, MinIO, Garage, s3rver...). Small bodies go up
 * in one PutObject; bodies over 8 MiB use a multipart upload that S3 commits
 * atomically on completion (aborted on error).
 */
export class S3Store implements ObjectStore {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
    this.client = new S3Client({ region: 'us-east-1', forcePathStyle: true, ...options.client });
  }

  private k(key: string): string {
    return this.prefix + checkKey(key);
  }

  async put(key: string, body: Body, options: PutOptions = {}): Promise<ObjectInfo> {
    const Key = this.k(key);
    const parts: Uint8Array[] = [];
    let buffered = 0;
    let uploadId: string | undefined;
    const done: { ETag: string; PartNumber: number }[] = [];
    const flushPart = async (): Promise<void> => {
      const bytes = Buffer.concat(parts);
      parts.length = 0;
      buffered = 0;
      if (!uploadId) {
        const created = await this.client.send(
          new CreateMultipartUploadCommand({ Bucket: this.bucket, Key, ContentType: options.contentType }),
        );
        uploadId = created.UploadId!;
      }
      const PartNumber = done.length + 1;
      const r = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key, UploadId: uploadId, PartNumber, Body: bytes }),
      );
      done.push({ ETag: r.ETag!, PartNumber });
    };
    try {
      for await (const chunk of bodyChunks(body)) {
        parts.push(chunk);
        buffered += chunk.byteLength;
        if (buffered >= PART_SIZE) await flushPart();
      }
      if (!uploadId) {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key,
            Body: Buffer.concat(parts),
            ContentType: options.contentType,
          }),
        );
      } else {
        if (buffered > 0) await flushPart();
        await this.client.send(
          new CompleteMultipartUploadCommand({
            Bucket: this.bucket,
            Key,
            UploadId: uploadId,
            MultipartUpload: { Parts: done },
          }),
        );
      }
    } catch (err) {
      if (uploadId) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw err;
    }
    const info = await this.head(key);
    if (!info) throw new ObjectNotFound(key);
    return info;
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
      return {
        key,
        size: r.ContentLength ?? 0,
        etag: r.ETag ?? '""',
        mtime: r.LastModified ?? new Date(0),
        ...(r.ContentType ? { contentType: r.ContentType } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult> {
    let range: { start: number; end: number } | undefined;
    if (options.range) {
      // S3 clamps or rejects ranges in its own way; resolve against the size first so both backends agree.
      const info = await this.head(key);
      if (!info) throw new ObjectNotFound(key);
      range = resolveRange(options.range, info.size);
    }
    try {
      const r = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.k(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = range ? Number(r.ContentRange?.split('/')[1] ?? Number.NaN) : (r.ContentLength ?? 0);
      return {
        key,
        size: total,
        etag: r.ETag ?? '""',
        mtime: r.LastModified ?? new Date(0),
        ...(r.ContentType ? { contentType: r.ContentType } : {}),
        body: r.Body as Readable,
        ...(range ? { range } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFound(key);
      if ((err as { name?: string }).name === 'InvalidRange') throw new InvalidRange(String((err as Error).message));
      throw err;
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    checkPrefix(prefix);
    let ContinuationToken: string | undefined;
    do {
      const r = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken }),
      );
      for (const o of r.Contents ?? []) {
        yield {
          key: o.Key!.slice(this.prefix.length),
          size: o.Size ?? 0,
          etag: o.ETag ?? '""',
          mtime: o.LastModified ?? new Date(0),
        };
      }
      ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async delete(key: string): Promise<boolean> {
    const existed = (await this.head(key)) !== null;
    if (existed) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
    return existed;
  }

  async deletePrefix(prefix: string): Promise<number> {
    let n = 0;
    let batch: string[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      n += batch.length;
      batch = [];
    };
    const keys: string[] = [];
    for await (const o of this.list(prefix)) keys.push(this.prefix + o.key);
    for (const key of keys) {
      batch.push(key);
      if (batch.length === 1000) await flush();
    }
    await flush();
    return n;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
