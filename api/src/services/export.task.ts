import type { MessagePort } from 'node:worker_threads';
import { CrsRequired, EngineError, InvalidInput } from '@nuage/engine/core/errors.js';
import type { CrsInfo } from '@nuage/engine/crs/index.js';
import {
  type ExportArtifact,
  type ExportFormat,
  type ExportOptions,
  exportFeatures,
  readGeoJsonFeatures,
} from '@nuage/engine/writers/export.js';
import { AppError } from '../errors.js';

/**
 * One vector export as a worker thread makes it (export.worker.mjs, started
 * by exports.thread.ts): read a stored GeoJSON, write the format. Parsing a
 * 30 MB GeoJSON and writing a Shapefile or DXF takes seconds of CPU that
 * must not hold the API's main thread. Only engine code and the API's error
 * class are imported here, so the thread's bundle stays small.
 */
export interface ExportTask {
  /** Local path of the stored GeoJSON (EPSG:4326). */
  input: string;
  format: ExportFormat;
  /** The project CRS (plain data), for DXF and Shapefile; null when unknown. */
  crs: CrsInfo | null;
  /** Path of the file to write. */
  out: string;
  options: ExportOptions;
}

/** The thread's answer: what was written, or the error as the API will answer it. */
export type ExportReply =
  | { ok: true; written: ExportArtifact }
  | {
      ok: false;
      app?: { status: number; code: string; message: string; details?: Record<string, unknown> };
      error?: { name: string; message: string; stack?: string };
    };

/** An engine error of a writer as the API's error (anything else is returned unchanged). */
export function exportError(err: unknown, format: ExportFormat): unknown {
  if (err instanceof CrsRequired) {
    return new AppError(409, 'CRS_REQUIRED', `a ${format.toUpperCase()} export needs the project CRS: ${err.message}`);
  }
  if (err instanceof InvalidInput) {
    if (/too large/i.test(err.message)) {
      return new AppError(413, 'EXPORT_TOO_LARGE', err.message, { format });
    }
    return new AppError(422, 'EXPORT_NOT_POSSIBLE', err.message, { format });
  }
  if (err instanceof EngineError) return new AppError(422, 'EXPORT_NOT_POSSIBLE', err.message, { format });
  return err;
}

/** Makes one export; never throws (the error travels in the reply). */
export async function runExportTask(task: ExportTask): Promise<ExportReply> {
  try {
    const features = await readGeoJsonFeatures(task.input);
    return { ok: true, written: await exportFeatures(features, task.format, task.crs, task.out, task.options) };
  } catch (err) {
    const mapped = exportError(err, task.format);
    if (mapped instanceof AppError) {
      return {
        ok: false,
        app: {
          status: mapped.status,
          code: mapped.code,
          message: mapped.message,
          ...(mapped.details ? { details: mapped.details } : {}),
        },
      };
    }
    const e = mapped instanceof Error ? mapped : new Error(String(mapped));
    return { ok: false, error: { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) } };
  }
}

/** The thread's side: takes one task, posts its reply. */
export function serveExport(port: MessagePort | null, task: ExportTask): void {
  if (!port) throw new Error('export.task.ts runs in a worker thread');
  void runExportTask(task).then((reply) => port.postMessage(reply));
}

/** The reply as the caller's result: the artifact, or the error rebuilt (an AppError when it maps to one). */
export function replyResult(reply: ExportReply): ExportArtifact {
  if (reply.ok) return reply.written;
  if (reply.app) throw new AppError(reply.app.status, reply.app.code, reply.app.message, reply.app.details);
  const err = new Error(reply.error?.message ?? 'the export thread failed');
  err.name = reply.error?.name ?? 'Error';
  if (reply.error?.stack) err.stack = reply.error.stack;
  throw err;
}
