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
} as const satisfies Record<string, { status: number; description: string }>;

/** A stable error code of the API. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Every code, in declaration order (the OpenAPI `ErrorCode` enum). */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
