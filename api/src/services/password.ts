import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's second recommended setting (19 MiB, t=2, p=1).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id (PHC string). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Checks a password against a PHC hash; false for a malformed hash. */
export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}

/** A random password that satisfies the spec's main rule (lower, upper, digit, special, ≥ 8). */
export function generatePassword(): string {
  const core = randomBytes(12).toString('base64url');
  return `${core}aZ7!`;
}
