import type { CloudflareTestContext } from './cloudflare-context';
import type { TestUser } from './context';

type Plan = 'free' | 'pro' | 'business' | 'enterprise';

let zoneCounter = 0;

/** A new active zone of the account at Cloudflare, and in the console's mirror as the zones sync would leave it. */
export async function addMirroredZone(
  ctx: CloudflareTestContext,
  account: { id: number; account_id: string },
  name: string,
) {
  const zone = ctx.sandbox.control.addZone(account.account_id, name, { status: 'active' });
  await ctx.db.query(
    `INSERT INTO zones (account_ref, user_id, account_name, zone_id, domain, status, name_servers)
     SELECT $1, user_id, account_name, $2, $3, $4, $5 FROM cloudflare_accounts WHERE id = $1`,
    [account.id, zone.id, zone.name, zone.status, zone.name_servers],
  );
  return zone;
}

/**
 * For the rules tests: a user's account (of the plan asked) with one active zone at Cloudflare, and
 * that zone in the console's mirror, as the zones sync would leave it.
 */
export async function addOwnedZone(
  ctx: CloudflareTestContext,
  user: TestUser,
  plan: Plan = 'enterprise',
): Promise<{ zoneId: string; accountId: string; token: string }> {
  zoneCounter += 1;
  const account = await ctx.addAccount(user, { plan });
  const zone = await addMirroredZone(ctx, account, `rules-${zoneCounter}.example.com`);
  return { zoneId: zone.id, accountId: account.account_id, token: account.tokenValue };
}

/** For the reports tests: a user's account of `plan` with `count` active zones named `<prefix>-N.example`, mirrored. */
export async function accountWithZones(
  ctx: CloudflareTestContext,
  user: TestUser,
  plan: Plan,
  count: number,
  prefix: string,
) {
  const account = await ctx.addAccount(user, { plan });
  const zoneIds: string[] = [];
  for (let i = 0; i < count; i++) {
    zoneCounter += 1;
    zoneIds.push((await addMirroredZone(ctx, account, `${prefix}-${zoneCounter}.example`)).id);
  }
  return { account, zoneIds };
}
