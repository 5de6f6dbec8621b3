/** Letters and digits without the look-alikes (0 O o, 1 l I), so a password read aloud or retyped survives. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
export const GENERATED_PASSWORD_LENGTH = 16;

/** A random first password (about 93 bits), from the browser's cryptographic generator. */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  // Bytes at or above the largest multiple of the alphabet's size are skipped: every character equally likely.
  const limit = 256 - (256 % ALPHABET.length);
  let password = '';
  while (password.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && password.length < length) password += ALPHABET[byte % ALPHABET.length];
    }
  }
  return password;
}
