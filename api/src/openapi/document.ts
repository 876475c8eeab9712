import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../context.js';

/** Path of the document under `/api`. */
export const OPENAPI_PATH = '/openapi.json';

/**
 * The OpenAPI 3.1 document of every route group mounted on `api` (the OpenAPIHono
 * under `/api`). Paths are relative to the server URL `/api`; nothing in it depends
 * on the configuration, so the committed api/openapi.json is the same everywhere.
 */
export function buildOpenApiDocument(api: OpenAPIHono<AppEnv>) {
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The token of POST /auth-jwt/login (API clients, GIS tools, scripts).',
  });
  api.openAPIRegistry.registerComponent('securitySchemes', 'cookieAuth', {
    type: 'apiKey',
    in: 'cookie',
    name: 'nuage_session',
    description: 'The HttpOnly session cookie set by login (web app); named __Host-nuage_session over https.',
  });
  return api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Nuage API',
      version: '1.0.0',
      description:
        'LiDAR point-cloud platform. Every error is `{ error: { code, message } }` with a stable code (see ErrorCode).',
    },
    servers: [{ url: '/api' }],
  });
}

/**
 * Serves the document at `/api/openapi.json` (built once, on first request, after
 * every group is mounted).
 *
 * @example
 * const api = new OpenAPIHono<AppEnv>();
 * for (const group of apiGroups) api.route('/', group(deps));
 * serveOpenApiDocument(api);
 */
export function serveOpenApiDocument(api: OpenAPIHono<AppEnv>): void {
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  api.get(OPENAPI_PATH, (c) => {
    document ??= buildOpenApiDocument(api);
    c.header('Cache-Control', 'no-cache');
    return c.json(document);
  });
}
