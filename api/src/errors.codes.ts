/**
 * Every stable error `code` the API answers with (`{ error: { code, message } }`),
 * with its HTTP status and what it means. The web client translates each code
 * (en-US, fr); the OpenAPI document lists them as the `ErrorCode` enum.
 * Areas add their codes here when they add routes.
 */
export const ERROR_CODES = {
  // Any route (the app's foundation).
  NOT_FOUND: { status: 404, description: 'No such endpoint or resource.' },
  INTERNAL: { status: 500, description: 'Internal server error.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    description: 'The request body must be JSON (Content-Type: application/json).',
  },
  VALIDATION_FAILED: { status: 400, description: 'The request does not have the expected shape.' },
  DATABASE_UNAVAILABLE: { status: 503, description: 'The database cannot be reached.' },
  UNAUTHORIZED: { status: 401, description: 'Authentication is required: log in.' },
  FORBIDDEN: { status: 403, description: 'Your role does not allow this.' },
  CROSS_SITE_REQUEST: {
    status: 403,
    description:
      'A POST, PUT, PATCH or DELETE carrying the session cookie came from another site (Origin / Sec-Fetch-Site): refused.',
  },

  // Authentication and accounts (spec §8 "Authentication").
  FORM_INVALID: {
    status: 400,
    description: 'Form errors: one or more fields are invalid (details.fields lists each field with its own code).',
  },
  INVALID_EMAIL: {
    status: 400,
    description: 'The email is not valid (it needs a top-level domain of 2 letters or more).',
  },
  DISPOSABLE_EMAIL: { status: 400, description: 'Disposable email addresses are not allowed.' },
  WEAK_PASSWORD: {
    status: 400,
    description:
      'The password needs 8 to 255 characters with a lower case, an upper case, a digit and a special character.',
  },
  COMMON_PASSWORD: { status: 400, description: 'This password is too common; choose another one.' },
  UNKNOWN_COUNTRY: { status: 400, description: 'The country is not in the list of ISO 3166 countries.' },
  INVALID_LINK_URL: {
    status: 400,
    description: 'resetPasswordUrl or activateUserUrl must point at this application (PUBLIC_URL).',
  },
  INVALID_CREDENTIALS: { status: 401, description: 'Invalid email or password.' },
  NO_ACCOUNT: {
    status: 404,
    description:
      'No account with this email or id. Shown to admins only: login and password-forgot never reveal whether an account exists.',
  },
  ACCOUNT_EXISTS: { status: 409, description: 'An account already exists with this email.' },
  ACCOUNT_INACTIVE: { status: 403, description: 'The account is disabled: contact support.' },
  ACCOUNT_NOT_ACTIVATED: {
    status: 403,
    description: 'The account is not activated yet: follow the link in the activation mail (or ask for a new one).',
  },
  INVALID_RESET_LINK: { status: 400, description: 'Invalid reset link, or missing or expired token.' },
  INVALID_ACTIVATION_LINK: { status: 400, description: 'Invalid activation link, or missing or expired token.' },
  RESET_MAIL_FAILED: {
    status: 503,
    description: 'The reset mail could not be sent; try again after Retry-After seconds.',
  },
  ACTIVATION_MAIL_FAILED: {
    status: 503,
    description: 'The activation mail could not be sent; try again after Retry-After seconds.',
  },
  TOO_MANY_ATTEMPTS: { status: 429, description: 'Too many attempts; try again after Retry-After seconds.' },
  TOKEN_INVALID: { status: 401, description: 'The session token is malformed, forged or signed with another key.' },
  TOKEN_EXPIRED: { status: 401, description: 'The session token has expired: log in again.' },
  TOKEN_REVOKED: {
    status: 401,
    description: 'The session was ended (logout, logout everywhere, password reset, role change or account disabled).',
  },
  FIELD_NOT_EDITABLE: {
    status: 400,
    description: 'This field cannot be changed here (roles, enabled, credits, email, password).',
  },
  LAST_ADMIN: { status: 409, description: 'The last admin cannot lose the admin role or be disabled.' },

  // Projects, uploads, jobs, tiles and sharing (spec §8 "Upload and project", "Processing", "Viewer").
  PROJECT_NOT_FOUND: { status: 404, description: 'No such project, or not one you may see.' },
  DUPLICATE_PROJECT_NAME: { status: 409, description: 'You already have a project with this name.' },
  PROJECT_NAME_REQUIRED: { status: 400, description: 'The project name is required.' },
  PROJECT_NAME_TOO_LONG: { status: 400, description: 'The project name must be under 255 characters.' },
  PROJECT_NAME_SLASH: { status: 400, description: 'The project name cannot contain a slash.' },
  MAX_PROJECTS_REACHED: { status: 403, description: 'Maximum number of projects reached.' },
  FILE_TOO_LARGE: { status: 413, description: 'The file size exceeds the limit (details.limit, bytes).' },
  FILE_SIZE_LIMIT_ZERO: {
    status: 403,
    description: 'Your subscription allows no upload (file size limit 0): subscribe to a new plan.',
  },
  STORAGE_LIMIT_REACHED: { status: 403, description: 'Storage limit reached.' },
  LAYER_NOT_FOUND: { status: 404, description: 'No such layer, or not one you may change.' },
  ASSET_NOT_FOUND: { status: 404, description: 'No such asset, or not one you may see.' },
  UNSUPPORTED_ASSET_TYPE: {
    status: 400,
    description: 'Only POINT_CLOUD assets are uploaded; other types are made by processing.',
  },
  INVALID_FILE: {
    status: 400,
    description: 'The file is invalid (not a LAS/LAZ file, or its header is inconsistent).',
  },
  MISSING_LAS_HEADER: { status: 400, description: 'The file has no LAS header.' },
  FILE_EMPTY: { status: 400, description: 'The file is empty (0 bytes): select a LAS or LAZ file.' },
  FILE_NAME_TOO_LONG: {
    status: 400,
    description: 'The file name must be under 255 characters (details.max, details.length).',
  },
  FILE_REQUIRED: {
    status: 400,
    description: 'A file must be selected (POST /assets/ion-tiler: the multipart/form-data part `file`).',
  },
  ASSET_ALREADY_UPLOADED: { status: 409, description: 'This project already has its point cloud.' },
  UPLOAD_URL_INVALID: { status: 403, description: 'The upload URL is not valid (altered or for another asset).' },
  UPLOAD_URL_EXPIRED: { status: 403, description: 'The upload URL has expired: ask for a new one.' },
  UPLOAD_URL_USED: { status: 409, description: 'The upload URL was already used: ask for a new one.' },
  UPLOAD_INCOMPLETE: { status: 400, description: 'The upload ended before the declared file size.' },
  ASSET_NOT_UPLOADED: { status: 409, description: 'The point cloud is not uploaded (or is already being tiled).' },
  CRS_REQUIRED: {
    status: 409,
    description: 'The point cloud has no coordinate reference system: set the asset epsgCode (PATCH /assets).',
  },
  UNKNOWN_EPSG: { status: 400, description: 'This EPSG code is not a known coordinate reference system.' },
  PROJECT_NOT_UPLOADED: { status: 409, description: 'Upload the point cloud first.' },
  PROJECT_NOT_READY: { status: 409, description: 'Project is not ready (details.status).' },
  ASSET_NOT_READY: { status: 409, description: 'The asset is not ready (details.status).' },
  NO_TILES: { status: 404, description: 'The asset does not have a valid accessUrl (it has no tiles).' },
  FILE_NOT_FOUND: { status: 404, description: 'The asset has no file with this extension.' },
  EXPORT_FORMAT_UNKNOWN: {
    status: 400,
    description: 'The export format (query parameter `format`) must be geojson, dxf or shp (details.allowed).',
  },
  EXPORT_NOT_VECTOR: {
    status: 400,
    description: 'Only vector assets are exported as GeoJSON, DXF or Shapefile; download other assets as they are.',
  },
  EXPORT_TOO_LARGE: {
    status: 413,
    description: 'The layer is too large for this format (a Shapefile holds at most 2 GB): export GeoJSON or DXF.',
  },
  EXPORT_NOT_POSSIBLE: {
    status: 422,
    description: 'This layer cannot be written in this format (the message says why, details.format names it).',
  },
  AREA_NOT_COMPUTED: { status: 409, description: 'The area could not be calculated: contact support.' },
  SUBSCRIPTION_SUSPENDED: {
    status: 403,
    description: 'Your subscription is suspended: contact support (no project creation, upload or processing).',
  },
  NO_SUBSCRIPTION: {
    status: 403,
    description: 'No subscription found: contact support (no project creation, upload or processing).',
  },
  SUBSCRIPTION_INACTIVE: {
    status: 403,
    description: 'Your subscription is inactive or cancelled (details.status): subscribe again to process projects.',
  },
  INSUFFICIENT_CREDITS: {
    status: 402,
    description:
      'Insufficient credits: the project area (details.required, hectares) is more than your credits left (details.available): subscribe or buy credits.',
  },
  PROCESSING_ALREADY_RUNNING: { status: 409, description: 'This project is already being processed.' },
  INVALID_PROCESSING_OPTIONS: {
    status: 400,
    description: 'A processing option is out of its range (spec §5; major contour interval > minor).',
  },
  JOB_NOT_FOUND: { status: 404, description: 'No such job.' },
  JOB_NOT_FAILED: { status: 409, description: 'Only a failed processing can be retried.' },
  SHARE_TOKEN_INVALID: { status: 404, description: 'This share link is not valid (revoked or mistyped).' },
  PREMIUM_REQUIRED: {
    status: 403,
    description: 'Downloading the classified point cloud needs a premium subscription (show the upgrade prompt).',
  },
  TILE_URL_INVALID: { status: 403, description: 'The tile or file URL is not valid (altered signature).' },
  TILE_URL_EXPIRED: { status: 403, description: 'The tile or file URL has expired: ask for a new one.' },
  INVALID_RANGE: { status: 416, description: 'The requested byte range is outside the file.' },
  INVALID_TILING_PARAMETERS: { status: 400, description: 'The tiling parameters text is not valid tiler options.' },
  INVALID_BBOX: {
    status: 400,
    description: 'bbox must be minx,miny,maxx,maxy (or 6 numbers with heights) in bbox-crs (default CRS84: lon,lat).',
  },

  // OGC API (/ogc) and personal access tokens.
  INVALID_PARAMETER: {
    status: 400,
    description:
      'A query parameter of an OGC API request is not valid (details.parameter names it: limit, f, datetime...).',
  },
  INVALID_CRS: {
    status: 400,
    description: 'crs or bbox-crs is not a CRS the collection offers (details.parameter, details.supported).',
  },
  INVALID_FILTER: {
    status: 400,
    description:
      'filter is not CQL2 text this server understands, or names a property that is not a queryable (details.parameter).',
  },
  ACCESS_TOKEN_INVALID: {
    status: 401,
    description: 'The access token or share token is not valid (unknown, revoked or expired).',
  },
  ACCESS_TOKEN_NOT_FOUND: { status: 404, description: 'You have no such personal access token.' },
  ACCESS_TOKEN_LIMIT: {
    status: 409,
    description: 'You have as many personal access tokens as allowed (50): revoke one you no longer use.',
  },

  // Subscriptions, credits and purchases (spec §3, §4; issue 21).
  SUBSCRIPTION_NOT_FOUND: { status: 404, description: 'No such subscription.' },
  SUBSCRIPTION_STATE_CONFLICT: {
    status: 409,
    description: 'The subscription is not in a status this action applies to (details.status).',
  },
  TEMPLATE_NOT_FOUND: { status: 404, description: 'No such subscription template.' },
  TEMPLATE_NOT_AVAILABLE: {
    status: 409,
    description: 'This offer cannot be bought now (template disabled, not PAID, outside its dates or without a price).',
  },
  CREDITS_NEGATIVE: {
    status: 409,
    description: 'Credits never go below zero: fewer hectares are available than this takes off (details.available).',
  },
  PAYMENTS_NOT_CONFIGURED: {
    status: 503,
    description: 'Purchases are not configured on this server (no STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET).',
  },
  PAYMENT_PROVIDER_ERROR: { status: 502, description: 'The payment provider failed: try again later.' },
  CHECKOUT_NOT_FOUND: { status: 404, description: 'No such purchase of yours.' },
  WEBHOOK_SIGNATURE_INVALID: {
    status: 400,
    description: 'The webhook signature is missing, wrong or older than 5 minutes.',
  },

  // Clip and download (issue 23).
  CLIP_AREA_TOO_LARGE: {
    status: 413,
    description: 'The clip area is larger than a clip may cover (details.maxAreaSquareMetres): draw a smaller one.',
  },
  CLIP_FORMAT_UNAVAILABLE: {
    status: 400,
    description: 'LAZ output is offered for point formats 0-3 without extra bytes only (details.formats): ask for LAS.',
  },
  CLIP_NOT_FOUND: { status: 404, description: 'No such clip in this project.' },
  CLIP_EMPTY: {
    status: 422,
    description: 'No point of the cloud is inside the area with the classes and returns asked (a failed clip job).',
  },

  // Classification editing (issue 23).
  CLASSIFIED_CLOUD_REQUIRED: {
    status: 409,
    description:
      'Classification edits need the classified point cloud of a finished processing: process the project first.',
  },
  INVALID_CLASS: {
    status: 400,
    description: 'A class code that is not in the list of point classes (LAS codes 0 to 28 without 8 and 12).',
  },
  NOTHING_TO_UNDO: { status: 409, description: 'No active classification edit to undo.' },
  NOTHING_TO_REDO: { status: 409, description: 'No undone classification edit to redo (a new edit clears them).' },
  CLASSIFICATION_EDIT_NOT_FOUND: { status: 404, description: 'No such classification edit in this project.' },
  CLASSIFICATION_EDIT_NOT_ACTIVE: { status: 409, description: 'This classification edit is already reverted.' },
  CLASSIFICATION_EDIT_NOT_REVERTED: { status: 409, description: 'This classification edit is already active.' },
  CLASSIFICATION_EDIT_FAILED: {
    status: 500,
    description: 'Applying the classification edits failed (a failed classification edit job; the message says why).',
  },
} as const satisfies Record<string, { status: number; description: string }>;

/** A stable error code of the API. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Every code, in declaration order (the OpenAPI `ErrorCode` enum). */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
