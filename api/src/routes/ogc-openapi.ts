import { DEFAULT_LIMIT, MAX_LIMIT } from '../services/ogc.service.js';

/** Media type of the OGC API's service description (OpenAPI 3.0, as OGC API - Features asks). */
export const OPENAPI_30_TYPE = 'application/vnd.oai.openapi+json;version=3.0';

const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (s: unknown, type = 'application/json') => ({ [type]: { schema: s } });
const html = { 'text/html': { schema: { type: 'string' } } };
const errors = {
  '400': { $ref: '#/components/responses/InvalidParameter' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
};

/**
 * The OpenAPI 3.0 document of `/ogc` (the landing page's `service-desc`):
 * every path, parameter and response shape, so that clients (GDAL reads the
 * items parameters, `filter-lang` among them) know what the server takes.
 */
export function ogcOpenApiDocument(base: string) {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Nuage OGC API - Features',
      version: '1.0.0',
      description: [
        'Vector products of Nuage projects (contours, grid, buildings, trees, forest inventory, power lines...) as',
        'OGC API - Features collections (Part 1 Core with GeoJSON and HTML, Part 2 CRS by reference, Part 3 CQL2 text',
        'filters on properties) and OGC API - Tiles vector tiles (MVT, WebMercatorQuad).',
        'Private projects need credentials: the web session, `Authorization: Bearer` with a session token or a personal',
        'access token, or `?token=` with a personal access token or a project share token.',
      ].join(' '),
    },
    servers: [{ url: base }],
    security: [{}, { bearerAuth: [] }, { tokenQuery: [] }, { cookieAuth: [] }],
    tags: [{ name: 'Capabilities' }, { name: 'Data' }, { name: 'Tiles' }],
    paths: {
      '/': {
        get: {
          tags: ['Capabilities'],
          summary: 'Landing page',
          operationId: 'getLandingPage',
          parameters: [ref('f')],
          responses: {
            '200': { description: 'Links to the API', content: { ...json(schema('landingPage')), ...html } },
          },
        },
      },
      '/conformance': {
        get: {
          tags: ['Capabilities'],
          summary: 'Conformance classes this server implements',
          operationId: 'getConformance',
          parameters: [ref('f')],
          responses: {
            '200': { description: 'Conformance classes', content: { ...json(schema('confClasses')), ...html } },
          },
        },
      },
      '/api': {
        get: {
          tags: ['Capabilities'],
          summary: 'This document (f=html: as a page)',
          operationId: 'getApi',
          parameters: [ref('f')],
          responses: {
            '200': {
              description: 'The OpenAPI document',
              content: { ...json({ type: 'object' }, OPENAPI_30_TYPE), ...html },
            },
          },
        },
      },
      '/collections': {
        get: {
          tags: ['Capabilities'],
          summary: 'The collections the caller may read (one per vector asset with features)',
          operationId: 'getCollections',
          parameters: [ref('f'), ref('token')],
          responses: {
            '200': { description: 'Collections', content: { ...json(schema('collections')), ...html } },
            '401': errors['401'],
          },
        },
      },
      '/collections/{collectionId}': {
        get: {
          tags: ['Capabilities'],
          summary: 'One collection: extent, CRSs, links',
          operationId: 'describeCollection',
          parameters: [ref('collectionId'), ref('f'), ref('token')],
          responses: {
            '200': { description: 'The collection', content: { ...json(schema('collection')), ...html } },
            ...errors,
          },
        },
      },
      '/collections/{collectionId}/items': {
        get: {
          tags: ['Data'],
          summary: 'Features of a collection, a page at a time',
          operationId: 'getFeatures',
          parameters: [
            ref('collectionId'),
            ref('limit'),
            ref('offset'),
            ref('bbox'),
            ref('bbox-crs'),
            ref('datetime'),
            ref('crs'),
            ref('filter'),
            ref('filter-lang'),
            ref('f'),
            ref('token'),
          ],
          responses: {
            '200': {
              description: 'A page of features (next and prev links page through them)',
              headers: { 'Content-Crs': { $ref: '#/components/headers/Content-Crs' } },
              content: { ...json(schema('featureCollectionGeoJSON'), 'application/geo+json'), ...html },
            },
            ...errors,
          },
        },
      },
      '/collections/{collectionId}/items/{featureId}': {
        get: {
          tags: ['Data'],
          summary: 'One feature',
          operationId: 'getFeature',
          parameters: [ref('collectionId'), ref('featureId'), ref('crs'), ref('f'), ref('token')],
          responses: {
            '200': {
              description: 'The feature',
              headers: { 'Content-Crs': { $ref: '#/components/headers/Content-Crs' } },
              content: { ...json(schema('featureGeoJSON'), 'application/geo+json'), ...html },
            },
            ...errors,
          },
        },
      },
      '/collections/{collectionId}/queryables': {
        get: {
          tags: ['Data'],
          summary: 'The properties filters may use (a JSON Schema)',
          operationId: 'getQueryables',
          parameters: [ref('collectionId'), ref('f'), ref('token')],
          responses: {
            '200': {
              description: 'Queryables',
              content: { ...json({ type: 'object' }, 'application/schema+json'), ...html },
            },
            ...errors,
          },
        },
      },
      '/collections/{collectionId}/tiles': {
        get: {
          tags: ['Tiles'],
          summary: 'Vector tilesets of a collection',
          operationId: 'getTileSetsList',
          parameters: [ref('collectionId'), ref('token')],
          responses: { '200': { description: 'Tilesets', content: json({ type: 'object' }) }, ...errors },
        },
      },
      '/collections/{collectionId}/tiles/{tileMatrixSetId}': {
        get: {
          tags: ['Tiles'],
          summary: 'The WebMercatorQuad vector tileset: TileJSON 3.0 and OGC TileSet metadata in one document',
          operationId: 'getTileSet',
          parameters: [ref('collectionId'), ref('tileMatrixSetId'), ref('token')],
          responses: { '200': { description: 'TileJSON / TileSet', content: json({ type: 'object' }) }, ...errors },
        },
      },
      '/collections/{collectionId}/tiles/{tileMatrixSetId}/{tileMatrix}/{tileRow}/{tileCol}': {
        get: {
          tags: ['Tiles'],
          summary: 'A Mapbox Vector Tile of the collection (every property, feature ids)',
          operationId: 'getTile',
          parameters: [
            ref('collectionId'),
            ref('tileMatrixSetId'),
            ref('tileMatrix'),
            ref('tileRow'),
            ref('tileCol'),
            ref('token'),
          ],
          responses: {
            '200': {
              description: 'The tile (ETag; 304 on If-None-Match)',
              content: { 'application/vnd.mapbox-vector-tile': { schema: { type: 'string', format: 'binary' } } },
            },
            '204': { description: 'No feature reaches this tile' },
            ...errors,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A session token (POST /api/auth-jwt/login) or a personal access token (nuage_pat_…).',
        },
        tokenQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: 'A personal access token or a share token, for tools that cannot set headers.',
        },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: 'nuage_session' },
      },
      headers: {
        'Content-Crs': {
          description: 'The CRS of the geometries, as <URI>.',
          schema: { type: 'string' },
        },
      },
      parameters: {
        collectionId: { name: 'collectionId', in: 'path', required: true, schema: { type: 'string' } },
        featureId: { name: 'featureId', in: 'path', required: true, schema: { type: 'string' } },
        limit: {
          name: 'limit',
          in: 'query',
          required: false,
          style: 'form',
          explode: false,
          description: `Features per page (default ${DEFAULT_LIMIT}; above ${MAX_LIMIT}, ${MAX_LIMIT} are returned).`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
        },
        offset: {
          name: 'offset',
          in: 'query',
          required: false,
          description: 'Features to skip (the next and prev links set it).',
          schema: { type: 'integer', minimum: 0, default: 0 },
        },
        bbox: {
          name: 'bbox',
          in: 'query',
          required: false,
          style: 'form',
          explode: false,
          description:
            'minx,miny,maxx,maxy (or 6 numbers with heights) in bbox-crs (default CRS84: lon,lat); features intersecting it.',
          schema: { type: 'array', minItems: 4, maxItems: 6, items: { type: 'number' } },
        },
        'bbox-crs': {
          name: 'bbox-crs',
          in: 'query',
          required: false,
          description: 'CRS of bbox: one of the collection’s crs (default CRS84).',
          schema: { type: 'string', format: 'uri' },
        },
        crs: {
          name: 'crs',
          in: 'query',
          required: false,
          description: 'CRS of the geometries returned: one of the collection’s crs (default CRS84).',
          schema: { type: 'string', format: 'uri' },
        },
        datetime: {
          name: 'datetime',
          in: 'query',
          required: false,
          description:
            'An RFC 3339 instant or interval (start/end, .. for an open end). Features carry the survey day of their project.',
          schema: { type: 'string' },
        },
        filter: {
          name: 'filter',
          in: 'query',
          required: false,
          description:
            "CQL2 text on the queryables: =, <>, <, <=, >, >=, LIKE, BETWEEN, IN, IS NULL, AND, OR, NOT, e.g. elevation>20 AND kind='major'.",
          schema: { type: 'string' },
        },
        'filter-lang': {
          name: 'filter-lang',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['cql2-text', 'cql-text'], default: 'cql2-text' },
        },
        f: {
          name: 'f',
          in: 'query',
          required: false,
          description: 'json (default) or html (also chosen by Accept: text/html).',
          schema: { type: 'string', enum: ['json', 'html'] },
        },
        token: {
          name: 'token',
          in: 'query',
          required: false,
          description: 'A personal access token or a share token (kept in every link of the answer).',
          schema: { type: 'string' },
        },
        tileMatrixSetId: {
          name: 'tileMatrixSetId',
          in: 'path',
          required: true,
          schema: { type: 'string', enum: ['WebMercatorQuad'] },
        },
        tileMatrix: {
          name: 'tileMatrix',
          in: 'path',
          required: true,
          schema: { type: 'integer', minimum: 0, maximum: 24 },
        },
        tileRow: { name: 'tileRow', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } },
        tileCol: { name: 'tileCol', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } },
      },
      responses: {
        InvalidParameter: {
          description: 'A parameter is not valid (parameter names it)',
          content: json(schema('exception')),
        },
        Unauthorized: { description: 'Credentials are missing or no longer valid', content: json(schema('exception')) },
        NotFound: {
          description: 'No such collection or feature (or not one the caller may read)',
          content: json(schema('exception')),
        },
      },
      schemas: {
        exception: {
          type: 'object',
          required: ['code'],
          properties: {
            code: { type: 'string' },
            description: { type: 'string' },
            parameter: { type: 'string' },
          },
        },
        link: {
          type: 'object',
          required: ['href', 'rel'],
          properties: {
            href: { type: 'string' },
            rel: { type: 'string' },
            type: { type: 'string' },
            title: { type: 'string' },
            templated: { type: 'boolean' },
          },
        },
        landingPage: {
          type: 'object',
          required: ['links'],
          properties: {
            title: { type: 'string' },
            description: { type: 'string' },
            links: { type: 'array', items: schema('link') },
          },
        },
        confClasses: {
          type: 'object',
          required: ['conformsTo'],
          properties: { conformsTo: { type: 'array', items: { type: 'string' } } },
        },
        collection: {
          type: 'object',
          required: ['id', 'links'],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            description: { type: 'string' },
            itemType: { type: 'string' },
            crs: { type: 'array', items: { type: 'string' } },
            storageCrs: { type: 'string' },
            extent: { type: 'object' },
            links: { type: 'array', items: schema('link') },
          },
        },
        collections: {
          type: 'object',
          required: ['links', 'collections'],
          properties: {
            links: { type: 'array', items: schema('link') },
            collections: { type: 'array', items: schema('collection') },
          },
        },
        featureGeoJSON: {
          type: 'object',
          required: ['type', 'geometry', 'properties'],
          properties: {
            type: { type: 'string', enum: ['Feature'] },
            id: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
            geometry: { type: 'object', nullable: true },
            properties: { type: 'object', nullable: true },
            links: { type: 'array', items: schema('link') },
          },
        },
        featureCollectionGeoJSON: {
          type: 'object',
          required: ['type', 'features'],
          properties: {
            type: { type: 'string', enum: ['FeatureCollection'] },
            features: { type: 'array', items: schema('featureGeoJSON') },
            links: { type: 'array', items: schema('link') },
            timeStamp: { type: 'string', format: 'date-time' },
            numberMatched: { type: 'integer', minimum: 0 },
            numberReturned: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
  };
}
