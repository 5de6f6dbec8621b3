import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TOKEN_VISIBLE_CHARS } from '@guardian/contract';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * Encrypts Cloudflare API tokens at rest with AES-256-GCM. Each value carries its own random IV and
 * authentication tag, so a tampered or wrongly keyed value fails loudly instead of decrypting to junk.
 */
export class TokenCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The token encryption key must be 32 bytes.');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      data.toString('base64'),
    ].join(':');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, data] = stored.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined)
      throw new Error('Unreadable encrypted token.');
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** The only form of a token that ever leaves the server: four stars and its last four characters. */
export function maskToken(lastChars: string): string {
  return `****${lastChars.slice(-TOKEN_VISIBLE_CHARS)}`;
}
