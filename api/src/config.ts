import path from 'node:path';
import { DEFAULT_TILE_POINTS, DEFAULT_TILED_FROM_POINTS } from '@nuage/engine/tiled/plan.js';
import { z } from 'zod';

/** The repository root: relative defaults (./data/...) are resolved against it. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Every environment variable Nuage reads, with its default and what it does.
 * README's configuration table is generated from these descriptions (`npm run docs:config`).
 */
export const CONFIG_VARIABLES = {
  PORT: { default: '8080', description: 'HTTP port of the API and web app.' },
  HOST: { default: '0.0.0.0', description: 'Interface the HTTP server binds to.' },
  PUBLIC_URL: {
    default: 'http://localhost:8080',
    description: 'Origin users reach the app at; links in mails and signed URLs are built on it.',
  },
  DATABASE_URL: {
    default: '',
    description: 'PostgreSQL (with PostGIS) connection string. Unset: the embedded database (PGlite + PostGIS).',
  },
  DATA_DIR: { default: './data', description: 'Folder for local state: embedded database, files, outbox.' },
  EMBEDDED_DB_DIR: { default: '<DATA_DIR>/db', description: 'Folder of the embedded database.' },
  EMBEDDED_DB_PORT: { default: '0', description: 'Loopback port of the embedded database (0: any free port).' },
  STORAGE_DIR: { default: '<DATA_DIR>/files', description: 'Folder where uploaded and produced files live.' },
  STORAGE_URL: {
    default: '',
    description: 'S3-compatible bucket for files (s3://bucket/prefix?endpoint=...). Unset: STORAGE_DIR.',
  },
  ADMIN_EMAIL: { default: 'admin@nuage.local', description: 'Email of the admin account created on first start.' },
  ADMIN_PASSWORD: {
    default: '',
    description: 'Password of that admin. Unset: one is generated and printed once on first start.',
  },
  JWT_SECRET: {
    default: '',
    description: 'Secret that signs session tokens. Unset: one is generated once and kept in the database.',
  },
  TRUST_PROXY: {
    default: 'false',
    description:
      'true when a reverse proxy sets X-Forwarded-For: the client IP (per-IP login limits) is then read from it.',
  },
  SMTP_URL: {
    default: '',
    description: 'SMTP server for mail (smtp://user:pass@host:port). Unset: mail goes to <DATA_DIR>/outbox.',
  },
  MAIL_FROM: { default: 'Nuage <no-reply@nuage.local>', description: 'Sender of outgoing mail.' },
  WORKER_CONCURRENCY: { default: '1', description: 'Jobs one worker process runs at once.' },
  TILED_PROCESSING_POINTS: {
    default: String(DEFAULT_TILED_FROM_POINTS),
    description:
      'Clouds with at least this many points are classified in tiles, one job per tile that any worker process (on any machine) may take; 0 never tiles.',
  },
  TILE_POINTS: {
    default: String(DEFAULT_TILE_POINTS),
    description: 'Points a tile of a tiled processing holds, about.',
  },
  TILE_BUFFER_METRES: {
    default: '40',
    description: 'Overlap around each tile (metres), so ground, buildings and wires are not cut at the seams.',
  },
  TILE_THREADS: {
    default: '2',
    description:
      'Tiles a worker process classifies at once, each in a worker thread of its own (memory: about that many tiles at work); 1 runs them one after the other. Worker processes that only take tiles run WORKER_CONCURRENCY of them.',
  },
  TILE_STALE_SECONDS: {
    default: '120',
    description:
      'A running tile whose heartbeat is older than this (its worker died) is taken again by another worker.',
  },
  TILER_WARM_UP: {
    default: 'true',
    description:
      "true: a worker process starts and warms the tiler's threads when it boots, so its first tiling does not pay their start-up.",
  },
  LOG_LEVEL: { default: 'info', description: 'pino log level (trace, debug, info, warn, error, silent).' },
  MAX_UPLOAD_BYTES: {
    default: '53687091200',
    description: 'Hard ceiling on any upload, whatever the subscription says (default 50 GiB).',
  },
  URL_SIGNING_SECRET: {
    default: '',
    description:
      'Secret that signs upload, tile and download URLs. Unset: one is generated once and kept in the database.',
  },
  DEFAULT_MAX_PROJECTS: {
    default: '50',
    description: 'Projects a user may own when their subscription sets no limit.',
  },
  DEFAULT_MAX_INPUT_FILE_BYTES: {
    default: '10737418240',
    description:
      'Largest LAS/LAZ upload (bytes) when the subscription sets no limit (default 10 GiB; 0 refuses uploads).',
  },
  DEFAULT_MAX_STORAGE_BYTES: {
    default: '107374182400',
    description: 'Total bytes of files a user may keep when the subscription sets no limit (default 100 GiB).',
  },
  DEFAULT_SUBSCRIPTION_STATUS: {
    default: 'active',
    description:
      'Status of the freemium subscription a new account gets (active, inactive, suspended or unsubscribed); none: no subscription until an admin gives one. Also the status a standing of migration 0004 that never had one is converted with.',
  },
  DEFAULT_CREDIT_HECTARES: {
    default: '1000',
    description:
      'Credits (hectares) of the default freemium template when the API first creates it (each month a freemium subscription is refilled to its allowance; admins edit the template afterwards), and of a 0004 standing that never had a figure; processing spends the project area.',
  },
  STRIPE_SECRET_KEY: {
    default: '',
    description:
      'Secret API key of the Stripe account (sk_live_... or sk_test_...). Unset: purchases are not offered (the buy page says so; admins still grant credits by hand).',
  },
  STRIPE_WEBHOOK_SECRET: {
    default: '',
    description:
      'Signing secret (whsec_...) of the Stripe webhook endpoint <PUBLIC_URL>/api/billing/stripe/webhook; events signed more than 5 minutes ago are refused.',
  },
  STRIPE_API_HOST: {
    default: '',
    description: 'Host of the Stripe API (unset: api.stripe.com); tests point it at a local Stripe-speaking server.',
  },
  STRIPE_API_PORT: { default: '', description: 'Port of the Stripe API (unset: 443).' },
  STRIPE_API_PROTOCOL: { default: '', description: 'http or https for the Stripe API (unset: https).' },
  PAYMENT_GRACE_DAYS: {
    default: '7',
    description:
      'Days a paid subscription whose renewal payment failed stays active before it is suspended (a paid invoice in between lifts it).',
  },
} as const satisfies Record<string, { default: string; description: string }>;

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535),
  HOST: z.string().min(1),
  PUBLIC_URL: z.url(),
  DATABASE_URL: z.string(),
  DATA_DIR: z.string().min(1),
  EMBEDDED_DB_DIR: z.string().min(1),
  EMBEDDED_DB_PORT: z.coerce.number().int().min(0).max(65535),
  STORAGE_DIR: z.string().min(1),
  STORAGE_URL: z.string(),
  ADMIN_EMAIL: z.email(),
  ADMIN_PASSWORD: z.string(),
  JWT_SECRET: z.string().refine((s) => s === '' || s.length >= 32, 'must be at least 32 characters'),
  TRUST_PROXY: z.enum(['true', 'false']).transform((v) => v === 'true'),
  SMTP_URL: z.string(),
  MAIL_FROM: z.string().min(1),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64),
  TILED_PROCESSING_POINTS: z.coerce.number().int().min(0),
  TILE_POINTS: z.coerce.number().int().min(1000),
  TILE_BUFFER_METRES: z.coerce.number().min(0).max(1000),
  TILE_THREADS: z.coerce.number().int().min(1).max(64),
  TILE_STALE_SECONDS: z.coerce.number().min(1).max(86400),
  TILER_WARM_UP: z.enum(['true', 'false']).transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive(),
  URL_SIGNING_SECRET: z.string().refine((v) => v === '' || v.length >= 32, 'must be at least 32 characters'),
  DEFAULT_MAX_PROJECTS: z.coerce.number().int().min(0),
  DEFAULT_MAX_INPUT_FILE_BYTES: z.coerce.number().int().min(0),
  DEFAULT_MAX_STORAGE_BYTES: z.coerce.number().int().min(0),
  DEFAULT_SUBSCRIPTION_STATUS: z.enum(['active', 'inactive', 'suspended', 'unsubscribed', 'none']),
  DEFAULT_CREDIT_HECTARES: z.coerce.number().min(0).max(1e12),
  STRIPE_SECRET_KEY: z.string(),
  STRIPE_WEBHOOK_SECRET: z.string(),
  STRIPE_API_HOST: z.string().regex(/^[A-Za-z0-9.-]*$/, 'a host name'),
  STRIPE_API_PORT: z.union([z.literal(''), z.coerce.number().int().min(1).max(65535)]),
  STRIPE_API_PROTOCOL: z.enum(['', 'http', 'https']),
  PAYMENT_GRACE_DAYS: z.coerce.number().min(0).max(365),
});

export type Config = z.infer<typeof schema> & { databaseKind: 'embedded' | 'server' };

/**
 * Reads the configuration from an environment (process.env by default), applies
 * defaults and resolves relative folders against the repository root.
 * Throws with every invalid variable named.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, string> = {};
  for (const [key, spec] of Object.entries(CONFIG_VARIABLES)) {
    const value = env[key];
    raw[key] = value !== undefined && value !== '' ? value : spec.default;
  }
  if (!env.PUBLIC_URL && env.PORT) raw.PUBLIC_URL = `http://localhost:${env.PORT}`;
  const dataDir = path.resolve(REPO_ROOT, raw.DATA_DIR!);
  raw.DATA_DIR = dataDir;
  raw.EMBEDDED_DB_DIR = raw.EMBEDDED_DB_DIR!.replace('<DATA_DIR>', dataDir);
  raw.STORAGE_DIR = raw.STORAGE_DIR!.replace('<DATA_DIR>', dataDir);
  raw.EMBEDDED_DB_DIR = path.resolve(REPO_ROOT, raw.EMBEDDED_DB_DIR);
  raw.STORAGE_DIR = path.resolve(REPO_ROOT, raw.STORAGE_DIR);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return { ...parsed.data, databaseKind: parsed.data.DATABASE_URL ? 'server' : 'embedded' };
}
