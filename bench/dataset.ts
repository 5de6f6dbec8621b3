/**
 * The data set: what the benchmark seeds into the Cloudflare sandbox (a 500,000-item list, a 10,000-item
 * list, 1,000 zones over five accounts, 100 custom rules on one zone), and the searches it reads.
 */
import { performance } from 'node:perf_hooks';
import { fmt } from './lib/report';
import type { TimedSandbox } from './lib/stack';
import { BIG_LIST_ITEMS, SMALL_LIST_ITEMS, ZONE_COUNT } from './options';

const REASONS = ['ssh brute force', 'credential stuffing', 'scanner', 'sql injection probe', 'spam relay'];
/** Every 50,000th item of the big list is a honeypot catch: a search that matches few (10 of 500,000). */
const RARE_EVERY = 50_000;
const RARE_OFFSET = 12_345;
/** The zones person's accounts: the reports section's 1,000 zones in 5 accounts. */
export const ZONE_ACCOUNTS = 5;
export const SEARCH_FEW = 'honeypot';
/** One item in five: a search that matches many (100,000 of 500,000). */
export const SEARCH_MANY = 'scanner';

export function bigListItem(i: number): { ip: string; comment: string } {
  const comment =
    i % RARE_EVERY === RARE_OFFSET ? `honeypot trap #${i}` : `${REASONS[i % REASONS.length]} #${i}`;
  return { ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, comment };
}

function smallListItem(i: number): { ip: string; comment: string } {
  return { ip: `172.16.${(i >> 8) & 255}.${i & 255}`, comment: `${REASONS[i % REASONS.length]} #${i}` };
}

export interface Seeded {
  listsToken: string;
  bigList: { accountId: string; listId: string; name: string };
  smallList: { accountId: string; listId: string; name: string };
  zoneAccounts: { name: string; token: string; accountId: string }[];
  /** The zone whose DNS and custom rules the write figures change (with 100 custom rules). */
  writeZone: { id: string; token: string };
  listAccounts: { name: string; token: string }[];
}

/**
 * The two lists' items at Cloudflare, once their accounts are in Guardian and the syncs queued by
 * adding them (an account's lists are brought in at once, issue 35 item 5) have read them empty: so
 * the Sync section's first syncs are into an empty mirror, with no sync of their own list beside them.
 */
export function fillLists(timed: TimedSandbox, seeded: Seeded): void {
  const { control } = timed.sandbox;
  const { bigList, smallList } = seeded;
  control.seedListItems(
    bigList.accountId,
    bigList.listId,
    Array.from({ length: BIG_LIST_ITEMS }, (_, i) => bigListItem(i)),
  );
  control.seedListItems(
    smallList.accountId,
    smallList.listId,
    Array.from({ length: SMALL_LIST_ITEMS }, (_, i) => smallListItem(i)),
  );
}

export async function seedSandbox(timed: TimedSandbox): Promise<Seeded> {
  const { control } = timed.sandbox;
  const started = performance.now();
  // The big list fills an Enterprise account's 500,000-item quota, so the writes go to the small one.
  const big = control.addAccount({ name: 'Bench Big Lists', plan: 'enterprise' });
  const small = control.addAccount({ name: 'Bench Small Lists', plan: 'enterprise' });
  const bigToken = 'bench-token-big-lists';
  const smallToken = 'bench-token-small-lists';
  control.addToken({ value: bigToken, accountIds: [big.id] });
  control.addToken({ value: smallToken, accountIds: [small.id] });
  // Empty until `fillLists`: see there.
  const bigList = control.addList(big.id, { name: 'bench_500k', kind: 'ip', description: 'Benchmark' });
  const smallList = control.addList(small.id, { name: 'bench_10k', kind: 'ip', description: 'Benchmark' });

  // The zones person: 1,000 zones over five accounts (several accounts exercise the join; the reports
  // section reads them all, 10 zones a query per account).
  const zoneAccounts: Seeded['zoneAccounts'] = [];
  const perAccount = Math.ceil(ZONE_COUNT / ZONE_ACCOUNTS);
  for (let a = 0; a < ZONE_ACCOUNTS; a++) {
    const account = control.addAccount({ name: `Bench Zones ${a + 1}`, plan: 'enterprise' });
    const token = `bench-token-zones-${a + 1}`;
    control.addToken({ value: token, accountIds: [account.id] });
    zoneAccounts.push({ name: account.name, token, accountId: account.id });
    for (let z = a * perAccount; z < Math.min(ZONE_COUNT, (a + 1) * perAccount); z++) {
      control.addZone(account.id, `bench-zone-${String(z).padStart(4, '0')}.com`, { status: 'active' });
    }
  }
  const writeZone = control.getZones(zoneAccounts[0]!.accountId)[0]!;
  // 100 custom rules at the zone, through the entrypoint PUT as Cloudflare takes them.
  const response = await fetch(
    `${timed.baseUrl}/zones/${writeZone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${zoneAccounts[0]!.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        rules: Array.from({ length: 100 }, (_, i) => ({
          description: `Bench rule ${i + 1}`,
          expression: `ip.src eq 192.0.2.${i + 1}`,
          action: 'block',
          enabled: true,
        })),
      }),
    },
  );
  if (!response.ok)
    throw new Error(`Seeding 100 custom rules failed: ${response.status} ${await response.text()}`);
  console.log(`Seeded the sandbox in ${fmt.ms(performance.now() - started)}.`);
  return {
    listsToken: bigToken,
    bigList: { accountId: big.id, listId: bigList.id, name: bigList.name },
    smallList: { accountId: small.id, listId: smallList.id, name: smallList.name },
    zoneAccounts,
    writeZone: { id: writeZone.id, token: zoneAccounts[0]!.token },
    listAccounts: [
      { name: 'Bench Big Lists', token: bigToken },
      { name: 'Bench Small Lists', token: smallToken },
    ],
  };
}
