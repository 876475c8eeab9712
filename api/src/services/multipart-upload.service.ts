import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import busboy from 'busboy';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import type { Viewer } from './access.service.js';
import { prepareUpload, startTiling, storeUpload } from './assets.service.js';
import { fileTooLarge, storageFull, type UploadAllowance, uploadAllowance } from './limits.service.js';
import type { AssetDto } from './project-view.js';

/** Name of the multipart part that carries the file. */
export const FILE_PART = 'file';

const fileRequired = () =>
  new AppError(400, 'FILE_REQUIRED', `a file must be selected: send it as the multipart/form-data part "${FILE_PART}"`);

/**
 * `POST /assets/ion-tiler` (spec §7): the one-request upload. The part named
 * `file` of a multipart/form-data body streams into the store exactly as the
 * signed PUT does (never buffered whole): same checks before the first byte
 * (layer, .las/.laz name, EPSG code, subscription, limits), the size limits
 * enforced while the bytes arrive (413 FILE_TOO_LARGE, 403
 * STORAGE_LIMIT_REACHED), the LAS header read back from the stored bytes, and
 * an interrupted upload leaves the asset ABORTED with its partial bytes
 * removed. Then the jobs start as with start-tiling. Other parts are skipped;
 * no file part is 400 FILE_REQUIRED.
 */
export async function ionTilerUpload(
  deps: AppDeps,
  viewer: Viewer,
  q: { layerId: string; epsgCode?: number | null | undefined },
  request: { contentType: string | undefined; body: Readable | null },
): Promise<AssetDto> {
  if (!request.body || !/^multipart\/form-data\s*;/i.test(request.contentType ?? '')) throw fileRequired();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': request.contentType! },
      // Browsers send file names as raw UTF-8 in filename="…" (busboy would read them as Latin-1: é → Ã©).
      defParamCharset: 'utf8',
      limits: { files: 5, fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 50 },
    });
  } catch (err) {
    throw new AppError(400, 'FORM_INVALID', `the multipart body cannot be read: ${(err as Error).message}`);
  }
  const body = request.body;
  const uploaded = await new Promise<Awaited<ReturnType<typeof storeUpload>>>((resolve, reject) => {
    let started = false;
    let settled = false;
    const finish = (err: unknown, value?: Awaited<ReturnType<typeof storeUpload>>) => {
      if (settled) return;
      settled = true;
      if (err) {
        // Stop reading: the server drains or closes the rest of the request.
        body.unpipe(parser);
        parser.removeAllListeners('file');
        reject(err);
      } else resolve(value!);
    };
    parser.on('file', (name, stream, info) => {
      if (started || name !== FILE_PART || !info.filename) {
        stream.resume();
        return;
      }
      started = true;
      // The client may go away while the checks run: the error waits on the stream for storeUpload.
      stream.on('error', () => {});
      let allowance: UploadAllowance | null = null;
      prepareUpload(deps, viewer, {
        layerId: q.layerId,
        type: 'POINT_CLOUD',
        filename: info.filename,
        epsgCode: q.epsgCode,
        declaredSize: null,
        tokenHash: null,
        expiresAt: null,
        async checkLimits(ownerId, replaced) {
          allowance = await uploadAllowance(deps, ownerId, replaced);
          if (allowance.storageLeft < 1) throw storageFull(allowance, 1);
        },
      })
        .then(({ asset }) => {
          const room = allowance!;
          return storeUpload(deps, asset, stream, {
            expectedBytes: null,
            overLimit: (received) =>
              received > room.fileLimit
                ? fileTooLarge(room.fileLimit, received, true)
                : received > room.storageLeft
                  ? storageFull(room, received)
                  : null,
          });
        })
        .then(
          (result) => finish(null, result),
          (err) => {
            stream.resume();
            finish(err);
          },
        );
    });
    parser.on('close', () => {
      if (!started) finish(fileRequired());
    });
    parser.on('error', (err: Error) => {
      // With a file under way, its stream fails too and storeUpload records the interruption.
      if (!started) finish(new AppError(400, 'FORM_INVALID', `the multipart body cannot be read: ${err.message}`));
    });
    pipeline(body, parser, () => {
      // Errors reach the parser (and the file stream) through the pipeline; settled above.
    });
  });
  return (await startTiling(deps, viewer, { assetId: uploaded.asset.id })).asset;
}
