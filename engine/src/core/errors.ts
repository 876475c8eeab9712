/**
 * Typed engine errors. Every error carries a stable `code` that the API and the
 * web client translate; messages are English and meant for logs and the CLI.
 */
export class EngineError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.code = code;
  }
}

/**
 * Raised for malformed or unsupported input. Names the field and, when it comes
 * from a file, the byte offset where the problem was found.
 *
 * @example
 * throw new InvalidInput('header.pointDataOffset', 'points to byte 90, inside the header (375 bytes)', 96);
 */
export class InvalidInput extends EngineError {
  readonly field: string;
  readonly offset: number | undefined;
  /** The offending value read from the input, when there is one (for translated messages). */
  readonly value: number | string | undefined;
  constructor(field: string, message: string, offset?: number, value?: number | string) {
    super('INVALID_INPUT', offset === undefined ? `${field}: ${message}` : `${field} (byte ${offset}): ${message}`);
    this.name = 'InvalidInput';
    this.field = field;
    this.offset = offset;
    this.value = value;
  }
}

/** The input has no CRS and none was given; the caller must supply an EPSG code. */
export class CrsRequired extends EngineError {
  constructor(message = 'the file has no coordinate reference system: give one with --epsg') {
    super('CRS_REQUIRED', message);
    this.name = 'CrsRequired';
  }
}

/** The work was cancelled through its AbortSignal. */
export class Cancelled extends EngineError {
  constructor() {
    super('CANCELLED', 'the operation was cancelled');
    this.name = 'Cancelled';
  }
}
