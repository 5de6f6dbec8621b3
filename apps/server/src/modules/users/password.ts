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
