import type { AppDeps } from '../context.js';
import { storedBytesOfOwner } from '../db/queries/assets.queries.js';
import { countOwnedProjects } from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';
import { effectiveLimits, ensureSubscription } from './subscription.service.js';

/** The limits that apply to a user (spec §3 subscription limits), defaults filled in. */
export interface UserLimits {
  maxProjects: number;
  /** Largest input file in bytes; 0 means uploads need a (new) subscription. */
  maxInputFileBytes: number;
  maxStorageBytes: number;
}

/**
 * A user's limits: those of their current subscription (spec §3), the
 * configured defaults for the ones it leaves unset (or without a subscription).
 */
export async function limitsOf(deps: AppDeps, userId: string): Promise<UserLimits> {
  return effectiveLimits(deps, await ensureSubscription(deps, userId));
}

/** 403 MAX_PROJECTS_REACHED when the user already owns as many projects as allowed. */
export async function checkProjectCount(deps: AppDeps, userId: string): Promise<void> {
  const [limits, owned] = await Promise.all([limitsOf(deps, userId), countOwnedProjects(deps.database.db, userId)]);
  if (owned >= limits.maxProjects) {
    throw new AppError(
      403,
      'MAX_PROJECTS_REACHED',
      `you own ${owned} projects, the most your subscription allows (${limits.maxProjects})`,
      { limit: limits.maxProjects, current: owned },
    );
  }
}

/** How many bytes an upload may have (see {@link checkUpload}). */
export interface UploadAllowance {
  /** Largest file: the user's input-file limit, capped by MAX_UPLOAD_BYTES. */
  fileLimit: number;
  /** Bytes the user may still store. */
  storageLeft: number;
  limits: UserLimits;
  /** Bytes the user stores now (less those the upload replaces). */
  stored: number;
}

/**
 * The room an upload has: 403 FILE_SIZE_LIMIT_ZERO when the subscription
 * allows no upload at all. `replacedBytes` are bytes the upload frees (an
 * earlier failed upload of the same asset).
 */
export async function uploadAllowance(deps: AppDeps, userId: string, replacedBytes = 0): Promise<UploadAllowance> {
  const limits = await limitsOf(deps, userId);
  if (limits.maxInputFileBytes === 0) {
    throw new AppError(
      403,
      'FILE_SIZE_LIMIT_ZERO',
      'your subscription does not allow uploads: subscribe to a new plan',
      {
        limit: 0,
      },
    );
  }
  const stored = (await storedBytesOfOwner(deps.database.db, userId)) - replacedBytes;
  return {
    fileLimit: Math.min(limits.maxInputFileBytes, deps.config.MAX_UPLOAD_BYTES),
    storageLeft: limits.maxStorageBytes - stored,
    limits,
    stored,
  };
}

/**
 * 413 FILE_TOO_LARGE: `fileSize` bytes pass the limit; with `streaming`, that
 * many bytes have arrived so far (the file is at least that large).
 */
export function fileTooLarge(limit: number, fileSize: number, streaming = false): AppError {
  const message = streaming
    ? `the file exceeds the limit of ${limit} bytes (${fileSize} bytes received so far)`
    : `the file (${fileSize} bytes) exceeds the limit of ${limit} bytes`;
  return new AppError(413, 'FILE_TOO_LARGE', message, { limit, fileSize });
}

/** 403 STORAGE_LIMIT_REACHED: `fileSize` more bytes would pass the storage limit. */
export function storageFull(a: UploadAllowance, fileSize: number): AppError {
  return new AppError(
    403,
    'STORAGE_LIMIT_REACHED',
    `storage limit reached: ${a.stored} bytes used, ${fileSize} more would pass the limit of ${a.limits.maxStorageBytes} bytes`,
    { limit: a.limits.maxStorageBytes, used: a.stored, fileSize },
  );
}

/**
 * Checks an upload of `fileSize` bytes against the user's input-file and storage
 * limits and the server's hard ceiling (MAX_UPLOAD_BYTES). `replacedBytes` are
 * bytes the upload frees (an earlier failed upload of the same asset).
 */
export async function checkUpload(deps: AppDeps, userId: string, fileSize: number, replacedBytes = 0): Promise<void> {
  const allowance = await uploadAllowance(deps, userId, replacedBytes);
  if (fileSize > allowance.fileLimit) throw fileTooLarge(allowance.fileLimit, fileSize);
  if (fileSize > allowance.storageLeft) throw storageFull(allowance, fileSize);
}
