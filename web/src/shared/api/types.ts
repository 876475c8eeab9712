import type { components } from './schema.generated.js';

/*
 * The API's shapes, from the types generated out of the OpenAPI document
 * (web/src/shared/api/schema.generated.ts): a server change that breaks the
 * client fails `tsc -p web/tsconfig.json`.
 */
type Schemas = components['schemas'];

/** Roles of spec §6. */
export type Role = Schemas['Role'];

/** Interface languages (spec §1). */
export type Language = Schemas['Language'];

/** A user as the API returns it (spec §3 User). */
export type User = Schemas['User'];

/** The session user object (spec §3): answered by login and refreshToken. */
export type SessionUser = Schemas['SessionUser'];

/** Profile and preference fields PATCH /users/current accepts. */
export type UserPatch = Schemas['CurrentUserPatch'];

/** A stable error code of the API. */
export type ErrorCode = Schemas['ErrorCode'];

/** The table contract of spec §7: a page of results and the total count. */
export interface Page<T> {
  count: number;
  results: T[];
}

/** Registration payload (spec §3), with the language of the account and the link its mail opens. */
export interface RegistrationPayload {
  username: string;
  password: string;
  firstname: string;
  lastname: string;
  company?: string;
  country: string;
  preferLanguage?: Language;
  activateUserUrl?: string;
}
