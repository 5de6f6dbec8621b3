import { createHash } from 'node:crypto';
import argon2 from 'argon2';
import type { PasswordHashing } from '../../config';

export function hashPassword(password: string, hashing: PasswordHashing): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...hashing });
}

/** False for a wrong password and for a stored hash argon2 cannot read. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/**
 * A short fingerprint of a stored password hash (each hash has its own salt, so every new password
 * gets a new stamp). A session opens only while the stamp its sign-in checked is still the person's:
 * a sign-in in flight when the password changes opens nothing.
 */
export function passwordStamp(passwordHash: string): string {
  return createHash('sha256').update(passwordHash, 'utf8').digest('base64url').slice(0, 22);
}
