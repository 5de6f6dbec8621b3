import type { CloudflareTestContext } from './cloudflare-context';
import type { TestUser } from './context';

let zoneCounter = 0;

/**
 * For the rules tests: a user's account (of the plan asked) with one active zone at Cloudflare, and
 * that zone in the console's mirror, as the zones sync would leave it.
 */
export async function addOwnedZone(
  ctx: CloudflareTestContext,
  user: TestUser,
  plan: 'free' | 'pro' | 'business' | 'enterprise' = 'enterprise',
): Promise<{ zoneId: string; accountId: string; token: string }> {
  zoneCounter += 1;
  const account = await ctx.addAccount(user, { plan });
  const zone = ctx.sandbox.control.addZone(account.account_id, `rules-${zoneCounter}.example.com`, {
    status: 'active',
  });
  await ctx.db.query(
    'INSERT INTO zones (account_ref, zone_id, domain, status, name_servers) VALUES ($1, $2, $3, $4, $5)',
    [account.id, zone.id, zone.name, zone.status, zone.name_servers],
  );
  return { zoneId: zone.id, accountId: account.account_id, token: account.tokenValue };
}
