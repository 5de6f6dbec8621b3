import type { CloudflareAccount } from '@guardian/contract';

/** A Cloudflare account as the accounts list answers it: its token masked to `****<last4>`, active. */
export const cloudflareAccount = (
  id: number,
  name: string,
  accountId: string,
  last4: string,
  token: Partial<Pick<CloudflareAccount, 'token_status' | 'token_expires_on' | 'token_checked_at'>> = {},
): CloudflareAccount => ({
  id,
  account_name: name,
  account_id: accountId,
  token: `****${last4}`,
  token_status: 'active',
  token_expires_on: null,
  token_checked_at: null,
  ...token,
});
