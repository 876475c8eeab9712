import { z } from '@hono/zod-openapi';
import { OPTION_FIELDS, OPTION_NAMES, type OptionField, type OptionName } from '@nuage/engine/products/options.js';

/** Shapes of the projects area (projects, layers, assets, jobs) for the OpenAPI document. */

export const IdSchema = z
  .string()
  .regex(/^\d{1,18}$/)
  .openapi({ description: 'Numeric id (as a string).', example: '42' });

/**
 * Asset types are those of the engine's product registry (and POINT_CLOUD):
 * a shape here, so that a new product changes no generated file;
 * `GET /api/processing/products` lists them.
 */
export const AssetTypeSchema = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{1,39}$/)
  .openapi('AssetType', {
    description: 'POINT_CLOUD or the asset type of a product of GET /api/processing/products.',
    example: 'DTM',
  });

export const AssetStatusSchema = z
  .enum(['NONE', 'UPLOADING', 'UPLOADED', 'PROCESSING', 'ABORTED', 'EXTRACTING_METADATA', 'TILING', 'READY', 'ERROR'])
  .openapi('AssetStatus');

export const ProjectStatusSchema = z
  .enum(['NONE', 'PENDING', 'UPLOADING', 'UPLOADED', 'PROCESSING', 'READY', 'ERROR'])
  .openapi('ProjectStatus');

export const JobStateSchema = z.enum(['NONE', 'PENDING', 'PROGRESS', 'SUCCESS', 'FAILURE']).openapi('JobState');

/** Project name rule of spec §5: required, under 255 characters, no slash. */
export const ProjectNameSchema = z
  .string()
  .trim()
  .refine((s) => s.length > 0, { error: 'the project name is required', params: { code: 'PROJECT_NAME_REQUIRED' } })
  .refine((s) => s.length < 255, {
    error: 'the project name must be under 255 characters',
    params: { code: 'PROJECT_NAME_TOO_LONG' },
  })
  .refine((s) => !s.includes('/'), {
    error: 'the project name cannot contain a slash',
    params: { code: 'PROJECT_NAME_SLASH' },
  })
  .openapi({ description: 'Required, under 255 characters, no slash; unique among your projects.', example: 'Autzen' });

export const AssetFileSchema = z
  .object({ extension: z.string(), fileName: z.string(), size: z.number().int() })
  .openapi('AssetFile');

export const AssetSchema = z
  .object({
    id: IdSchema,
    layerId: IdSchema,
    type: AssetTypeSchema,
    status: AssetStatusSchema,
    name: z.string(),
    storage: z.enum(['CESIUM_ION', 'CUSTOM_TILING']),
    tilingType: z.enum(['GOCESIUM_TILER', 'PY3DTILES']).nullable(),
    display: z.enum(['pointCloud', 'raster', 'vector', 'download']).openapi({
      description: 'How a viewer shows it (product registry): 3D Tiles, raster tiles, OGC features or a download.',
    }),
    accessUrl: z.string().nullable().openapi({
      description:
        'When READY: signed URL of tileset.json (point clouds) or of the `{z}/{x}/{y}.png` template (rasters); expires after 6 h.',
    }),
    files: z.array(AssetFileSchema),
    originalFilename: z.string().nullable(),
    epsgCode: z.number().int().nullable(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Asset');

export const LayerSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    type: z.enum(['POINT_CLOUD', 'RASTER', 'VECTOR', 'REPORT']),
    assets: z.array(AssetSchema).openapi({ description: 'In the asset order of spec §3.' }),
  })
  .openapi('Layer');

/** Where a waiting or running job stands (api/src/services/queue.service.ts). */
const QueueSchema = z
  .object({
    position: z
      .number()
      .int()
      .nullable()
      .openapi({ description: '1: next to start; null: running, or not queued yet.' }),
    running: z.number().int().openapi({ description: 'Jobs running now, everyone’s.' }),
    workers: z.number().int().openapi({ description: 'Worker processes alive (heartbeat in the last minute).' }),
    waitingForPointCloud: z
      .boolean()
      .openapi({ description: 'A processing that is queued once the point cloud’s tiling ends.' }),
    queuedAt: z.string().nullable(),
    startedAt: z.string().nullable(),
    runAt: z.string().nullable().openapi({ description: 'When a worker takes it; in the future while a retry waits.' }),
    attempts: z.number().int().nullable(),
    maxAttempts: z.number().int().nullable(),
  })
  .openapi('QueueState');

const JobSummarySchema = z
  .object({
    id: IdSchema,
    state: JobStateSchema,
    step: z.string().nullable(),
    percentage: z.number(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    updatedAt: z.string(),
    queue: QueueSchema.optional().openapi({ description: 'PENDING or PROGRESS jobs only.' }),
  })
  .openapi('JobSummary');

export const ProjectSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    status: ProjectStatusSchema,
    lasName: z.string().nullable(),
    area: z.number().nullable().openapi({ description: 'Covered area in hectares.' }),
    systemId: z.string().nullable(),
    generatingSoftware: z.string().nullable(),
    creationDay: z.number().int().nullable(),
    creationYear: z.number().int().nullable(),
    lidarPointCount: z.number().nullable(),
    maxElevation: z.number().nullable(),
    minElevation: z.number().nullable(),
    pointCloudMemory: z.number().nullable().openapi({ description: 'Size of the LAS/LAZ file in GB.' }),
    lasVersion: z.string().nullable(),
    epsgCode: z.number().int().nullable(),
    creatorEmail: z.string(),
    creationDate: z.string(),
    updatedAt: z.string(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    shareToken: z.string().nullable().optional().openapi({ description: 'Owner and admins only.' }),
    verticalReference: z.record(z.string(), z.unknown()).nullable().optional().openapi({
      description:
        'Vertical reference of the point cloud heights (heights: orthometric|ellipsoidal, name, epsg, source: crs|assumed, geoidModel, undulationMetres) — the globe adds the geoid undulation to orthometric heights.',
    }),
    headerBoundsWarning: z
      .object({ header: z.record(z.string(), z.number()), actual: z.record(z.string(), z.number()).nullable() })
      .nullable()
      .optional()
      .openapi({
        description: 'The file header’s bounds were smaller than its points; the true bounds were read (a warning).',
      }),
    layers: z.array(LayerSchema).optional().openapi({ description: 'In the layer order of spec §3.' }),
    jobs: z
      .object({
        metadata: JobSummarySchema.optional(),
        tiling: JobSummarySchema.optional(),
        processing: JobSummarySchema.optional(),
      })
      .optional()
      .openapi({ description: 'The latest job of each kind.' }),
  })
  .openapi('Project');

export const JobSchema = z
  .object({
    id: IdSchema,
    kind: z.enum(['METADATA', 'TILING', 'PROCESSING', 'CLASSIFICATION_EDIT']),
    taskId: z.string(),
    projectId: IdSchema,
    projectName: z.string(),
    assetId: IdSchema.nullable(),
    status: JobStateSchema,
    step: z
      .string()
      .nullable()
      .openapi({ description: 'Progress step of spec §4 (or a product id while processing).' }),
    percentage: z.number(),
    lasName: z.string().nullable(),
    fileSize: z.number().nullable(),
    lasSize: z.number().nullable(),
    user: z.string().nullable(),
    area: z.number().nullable(),
    epsg: z.number().nullable(),
    dtmResolution: z.number().nullable(),
    shadedDtm: z.boolean().nullable(),
    contours: z.boolean().nullable(),
    contourResolution: z.object({ minor: z.number(), major: z.number() }).nullable(),
    gridResolution: z.number().nullable(),
    buildingSimplification: z.string().nullable(),
    options: z.unknown(),
    result: z.unknown(),
    retryCount: z.number().int(),
    attempts: z.number().int(),
    tiles: z
      .object({
        total: z.number().int(),
        done: z.number().int(),
        running: z.number().int(),
        failed: z.number().int(),
      })
      .nullable()
      .optional()
      .openapi({
        description:
          'A processing classified in tiles across workers (TILED_PROCESSING_POINTS): its tiles by state (job view only; null otherwise).',
      }),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    timestamp: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .openapi('Job');

function optionSchema(name: OptionName) {
  const f: OptionField = OPTION_FIELDS[name];
  switch (f.kind) {
    case 'centimetres':
      return z
        .number()
        .min(f.min)
        .max(f.max)
        .optional()
        .openapi({ description: `${f.min}–${f.max} cm (default ${f.default}).` });
    case 'centimetreList':
      return z
        .array(z.number().min(f.min).max(f.max))
        .min(f.minItems)
        .max(f.maxItems)
        .optional()
        .openapi({
          description: `${f.minItems}–${f.maxItems} radii of ${f.min}–${f.max} cm (default ${f.default.join(', ')}).`,
        });
    case 'choice':
      return z
        .enum(f.choices as [string, ...string[]])
        .optional()
        .openapi({ description: `Default ${f.default}.` });
  }
}

/**
 * Processing options (spec §2, ranges of §5, centimetres), made from the
 * engine's option descriptors; every field optional (defaults apply). The
 * service validates with the engine's own schema.
 */
export const ProcessingOptionsBodySchema = z
  .object({
    ...Object.fromEntries(OPTION_NAMES.map((n) => [n, optionSchema(n)])),
    products: z
      .array(z.string())
      .min(1)
      .optional()
      .openapi({ description: 'Product ids to make (with what they need); every product when absent.' }),
    orthophotoAssetId: z.string().optional().openapi({
      description:
        "Id of the project's uploaded ORTHOPHOTO asset (an RGB GeoTIFF, upload-signed-url with type ORTHOPHOTO): the classified cloud takes its colours from it (LAS PDRF 7, coloured tiles). Refused (ORTHOPHOTO_NOT_COVERING) when under half of the points fall on it.",
    }),
  })
  // Unknown fields reach the service, which refuses them by name (INVALID_PROCESSING_OPTIONS).
  .passthrough()
  .openapi('ProcessingOptions', {
    description: `The major contour interval must be greater than the minor one. Fields: ${OPTION_NAMES.join(', ')}.`,
  });

/** One product of the registry (GET /processing/products). */
export const ProductInfoSchema = z
  .object({
    id: z.string().openapi({ example: 'hillshade' }),
    assetType: AssetTypeSchema,
    title: z.string(),
    layer: z.enum(['POINT_CLOUD', 'RASTER', 'VECTOR', 'REPORT']),
    display: z.enum(['pointCloud', 'raster', 'vector', 'download']),
    needs: z.array(z.string()),
    options: z.array(z.string()),
  })
  .openapi('ProductInfo');
