import { z } from '@hono/zod-openapi';

/** Shapes of the projects area (projects, layers, assets, jobs) for the OpenAPI document. */

export const IdSchema = z
  .string()
  .regex(/^\d{1,18}$/)
  .openapi({ description: 'Numeric id (as a string).', example: '42' });

export const ASSET_TYPES = [
  'POINT_CLOUD',
  'CLASSIFIED_POINT_CLOUD',
  'POWER_LINE',
  'GRID',
  'CONTOUR_LINE',
  'CONTOUR_LINE_MAJOR',
  'CONTOUR_LINE_MINOR',
  'BUILDINGS',
  'TREE_CROWNS',
  'TREE_TOPS',
  'DTM',
  'IMAGERY_DTM',
  'HILLSHADE_DTM',
  'SLOPE_MAP',
  'TOPOGRAPHIC_MAP',
  'FOREST_INVENTORY',
  'PDF_REPORT',
] as const;

export const AssetTypeSchema = z.enum(ASSET_TYPES).openapi('AssetType');

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

const JobSummarySchema = z
  .object({
    id: IdSchema,
    state: JobStateSchema,
    step: z.string().nullable(),
    percentage: z.number(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    updatedAt: z.string(),
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
    kind: z.enum(['METADATA', 'TILING', 'PROCESSING']),
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
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    timestamp: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .openapi('Job');

/** Processing form options (spec §2, ranges of §5, centimetres); every field optional (defaults apply). */
export const ProcessingOptionsBodySchema = z
  .object({
    dtmResolution: z.number().optional().openapi({ description: '20–3000 cm (default 50).' }),
    shadedDtm: z.boolean().optional(),
    contours: z.boolean().optional(),
    contourMinorInterval: z.number().optional().openapi({ description: '10–1000 cm (default 50).' }),
    contourMajorInterval: z.number().optional().openapi({ description: '10–1000 cm, > minor (default 250).' }),
    gridResolution: z.number().optional().openapi({ description: '100–10000 cm (default 1000).' }),
    powerLineBufferZones: z.array(z.number()).optional().openapi({ description: '1–3 radii of 100–1000 cm.' }),
    clearanceZoneHeight: z.number().optional().openapi({ description: '100–10000 cm.' }),
    treeFallHeightBuffer: z.number().optional().openapi({ description: '10–1000 cm.' }),
    crownShape: z.enum(['NARROW', 'WIDE']).optional(),
    buildingSimplification: z.enum(['RURAL', 'URBAN']).optional(),
  })
  .passthrough()
  .openapi('ProcessingOptions');
