/**
 * Typed storage errors. Every error carries a stable `code` the API translates
 * (`INVALID_KEY` → 400, `NOT_FOUND` → 404, `INVALID_RANGE` → 416).
 */
export class StorageError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
}

/** A key that is empty, absolute, climbs out with `..`, or holds a backslash or NUL. */
export class InvalidKey extends StorageError {
  readonly key: string;
  constructor(key: string, reason: string) {
    super('INVALID_KEY', `invalid storage key ${JSON.stringify(key.slice(0, 200))}: ${reason}`);
    this.name = 'InvalidKey';
    this.key = key;
  }
}

/** No object is stored under the key. */
export class ObjectNotFound extends StorageError {
  readonly key: string;
  constructor(key: string) {
    super('NOT_FOUND', `no object stored under ${JSON.stringify(key)}`);
    this.name = 'ObjectNotFound';
    this.key = key;
  }
}

/** The requested byte range does not overlap the object. */
export class InvalidRange extends StorageError {
  constructor(message: string) {
    super('INVALID_RANGE', message);
    this.name = 'InvalidRange';
  }
}

/** The `STORAGE_URL` setting cannot be understood. */
export class InvalidStorageUrl extends StorageError {
  constructor(message: string) {
    super('INVALID_STORAGE_URL', message);
    this.name = 'InvalidStorageUrl';
  }
}
