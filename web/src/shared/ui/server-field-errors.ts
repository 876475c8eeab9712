import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../api/api-error.js';

interface FieldIssue {
  field?: unknown;
  code?: unknown;
}

/**
 * Puts the per-field errors of a FORM_INVALID-style answer
 * (`details.fields: [{ field, code }]`) under the form's fields, translated
 * from their codes. `fieldMap` maps the API's field paths to the form's.
 *
 * @returns true when at least one field got an error.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fieldMap: Record<string, Path<T>>,
): boolean {
  if (!isApiError(err)) return false;
  const fields = err.details?.fields;
  if (!Array.isArray(fields)) return false;
  let applied = false;
  for (const f of fields as FieldIssue[]) {
    if (typeof f.field !== 'string' || typeof f.code !== 'string') continue;
    const target = fieldMap[f.field];
    if (!target) continue;
    setError(target, { type: 'server', message: `errors:${f.code}` });
    applied = true;
  }
  return applied;
}

/** Seconds the server asks to wait before trying again (`details.retryAfterSeconds`), if any. */
export function retryAfterSeconds(err: unknown): number | null {
  if (!isApiError(err)) return null;
  const s = err.details?.retryAfterSeconds;
  return typeof s === 'number' && s > 0 ? Math.ceil(s) : null;
}
