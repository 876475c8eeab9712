import { sql } from 'kysely';
import type { AppDeps } from '../context.js';
import { generatePassword, hashPassword } from './password.js';

/**
 * Creates the first admin when the database has none: ADMIN_EMAIL with
 * ADMIN_PASSWORD, or a generated password printed once on stdout. Safe when
 * several processes start together (the email is unique).
 *
 * @returns the generated password when one was made, else null.
 */
export async function ensureAdmin(deps: AppDeps): Promise<string | null> {
  const { db } = deps.database;
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where(({ eb, val }) => eb(val('admin'), '=', eb.fn.any('roles')))
    .executeTakeFirst();
  if (existing) return null;
  const generated = deps.config.ADMIN_PASSWORD ? null : generatePassword();
  const password = deps.config.ADMIN_PASSWORD || generated!;
  const inserted = await db
    .insertInto('users')
    .values({
      email: deps.config.ADMIN_EMAIL.toLowerCase(),
      password_hash: await hashPassword(password),
      firstname: 'Admin',
      lastname: 'Nuage',
      roles: ['admin', 'user'],
      enabled: true,
      premium: true,
    })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  deps.log.info({ email: deps.config.ADMIN_EMAIL }, 'created the first admin account');
  if (generated) {
    process.stdout.write(
      `\n  First start: admin account ${deps.config.ADMIN_EMAIL} created with password ${generated}\n  (shown once; set ADMIN_PASSWORD to choose it).\n\n`,
    );
  }
  return generated;
}
