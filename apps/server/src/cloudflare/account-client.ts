import type Cloudflare from 'cloudflare';
import type { TokenCipher } from '../crypto/token-cipher';
import type { CloudflareGateway } from './client';

/** What reaching a stored account takes (AppDeps has both). */
export interface AccountClientDeps {
  cloudflare: CloudflareGateway;
  tokenCipher: TokenCipher;
}

/**
 * The SDK client of a stored Cloudflare account (its token decrypted, the gateway's client and
 * throttle for it). Only for an account the caller found through the person's own accounts.
 */
export function accountClient(
  { cloudflare, tokenCipher }: AccountClientDeps,
  account: { tokenEncrypted: string },
): Cloudflare {
  return cloudflare.client(tokenCipher.decrypt(account.tokenEncrypted));
}
