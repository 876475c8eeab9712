import { z } from 'zod';

/** Longest project name (spec §5: under 255 characters). */
export const PROJECT_NAME_MAX = 254;

/**
 * A project name (spec §5): required, under 255 characters, no slash.
 * Uniqueness per owner is the server's rule (DUPLICATE_PROJECT_NAME).
 */
export const projectNameRule = z
  .string()
  .trim()
  .min(1, 'projects:create.errors.nameRequired')
  .max(PROJECT_NAME_MAX, 'projects:create.errors.nameTooLong')
  .refine((v) => !v.includes('/'), 'projects:create.errors.nameSlash');
