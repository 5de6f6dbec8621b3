/**
 * Servers (issue 39): 1,000 bans a minute from 50 registered servers, each with its own key, into a
 * group whose two lists are in two Cloudflare accounts, for `--servers-minutes` (3). Each call is a
 * `POST /api/server-api/ban`, timed; the sandbox's two lists are read every 100 ms to see when each ban
 * is at Cloudflare. Three figures:
 * - Cloudflare list writes / the minimum. Cloudflare allows one pending bulk operation per account,
 *   so a ban sent after the account's previous write went out needs a later write: a write is needed
 *   when a ban was sent between the list's previous write and it. A write with nothing new since the
 *   previous one (a split batch, a write per server) is one too many.
 * - p99 from a server's call to its item at Cloudflare (each list counted).
 * - the calls' p99.
 */
import { performance } from 'node:perf_hooks';
import { banListEndpoints, listCapacityEndpoints, pathOf, serverEndpoints } from '@guardian/contract';
import { BUDGET, SERVERS_MINUTES } from '../options';
import { fmt } from '../lib/report';
import { reasonOf, type Context } from './context';

const SECTION = 'Servers';
const BANS_PER_MINUTE = 1_000;
const SERVERS = 50;
const POLL_MS = 100;
/** After the last call, how long the bans may take to all be at Cloudflare before the run gives up. */
const SETTLE_MS = 60_000;
const FIGURES = {
  writes: '1,000 bans/min from 50 servers into 2 accounts, Cloudflare list writes / the minimum',
  arrival: "a server's ban call to the item at Cloudflare, p99",
  calls: "a server's ban call, p99",
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p99 = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
};
const addressOf = (n: number) => `100.${64 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;

export async function serversSection(ctx: Context): Promise<void> {
  const { control } = ctx.timed.sandbox;
  try {
    // Two of the zones person's accounts, a list in each (the list person's accounts are full or busy).
    const accounts = ctx.seeded.zoneAccounts.slice(0, 2);
    const lists = accounts.map((account, n) => ({
      accountId: account.accountId,
      ...control.addList(account.accountId, { name: `bench_servers_${n}`, kind: 'ip' }),
    }));
    await ctx.zones.request('POST', banListEndpoints.update.path);
    for (const account of accounts)
      await ctx.zones.request(
        'PUT',
        pathOf(listCapacityEndpoints.setPlan, { account_id: account.accountId }),
        { plan: 'enterprise' },
      );
    const group = await ctx.zones.request<{ id: number }>('POST', serverEndpoints.groupCreate.path, {
      name: 'Bench servers',
      list_ids: lists.map((list) => list.id),
      ceiling_per_hour: 100_000,
    });
    const keys: string[] = [];
    for (let n = 0; n < SERVERS; n += 1) {
      const server = await ctx.zones.request<{ key: string }>('POST', serverEndpoints.create.path, {
        name: `bench-${n}`,
        group_id: group.id,
        integration: 'script',
      });
      keys.push(server.key);
    }

    control.resetCalls();
    const total = Math.round(BANS_PER_MINUTE * SERVERS_MINUTES);
    const spacingMs = 60_000 / BANS_PER_MINUTE;
    const sentAt = new Map<string, number>();
    const arrived = lists.map(() => new Map<string, number>());
    const callMs: number[] = [];
    const refused: string[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const now = Date.now();
        lists.forEach((list, n) => {
          for (const item of control.getListItems(list.accountId, list.id)) {
            const ip = String(item.ip);
            if (!arrived[n]!.has(ip)) arrived[n]!.set(ip, now);
          }
        });
        await sleep(POLL_MS);
      }
    })();
    const calls: Promise<void>[] = [];
    const started = Date.now();
    for (let n = 0; n < total; n += 1) {
      const wait = started + n * spacingMs - Date.now();
      if (wait > 0) await sleep(wait);
      const address = addressOf(n);
      const key = keys[n % SERVERS]!;
      calls.push(
        (async () => {
          sentAt.set(address, Date.now());
          const callStarted = performance.now();
          try {
            const response = await fetch(`${ctx.lists.origin}/api/server-api/ban`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: JSON.stringify({ address, jail: 'bench', reason: 'throughput' }),
            });
            const text = await response.text();
            callMs.push(performance.now() - callStarted);
            if (response.status !== 202) refused.push(`${response.status} ${text.slice(0, 120)}`);
          } catch (err) {
            // A connection the server closed (its connections per address): the ban was not taken.
            sentAt.delete(address);
            refused.push(`no answer: ${reasonOf(err)}`);
          }
        })(),
      );
    }
    await Promise.all(calls);
    const sendingMs = Date.now() - started;
    const settleStarted = Date.now();
    while (arrived.some((seen) => seen.size < total) && Date.now() - settleStarted < SETTLE_MS)
      await sleep(POLL_MS);
    polling = false;
    await poller;

    // Each list's writes: one is needed when a ban was sent after the list's previous write went out
    // (that write could not have carried it); the first is always needed.
    const sent = [...sentAt.values()].sort((a, b) => a - b);
    const sentBetween = (from: number, to: number) => {
      let low = 0;
      let high = sent.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (sent[mid]! <= from) low = mid + 1;
        else high = mid;
      }
      return low < sent.length && sent[low]! <= to;
    };
    let writes = 0;
    let needed = 0;
    for (const list of lists) {
      const posts = control
        .callLog({ path: new RegExp(`/rules/lists/${list.id}/items$`) })
        .filter((call) => call.method === 'POST' && call.status < 300)
        .map((call) => call.at)
        .sort((a, b) => a - b);
      writes += posts.length;
      posts.forEach((at, k) => {
        if (k === 0 || sentBetween(posts[k - 1]!, at)) needed += 1;
      });
    }
    const arrivals: number[] = [];
    let missing = 0;
    for (const seen of arrived)
      for (const [address, sent] of sentAt) {
        const at = seen.get(address);
        if (at === undefined) missing += 1;
        else arrivals.push(at - sent);
      }
    const ratio = needed > 0 ? writes / needed : Number.NaN;
    const arrivalP99 = p99(arrivals);
    const callP99 = p99(callMs);
    ctx.report.data.servers = {
      minutes: SERVERS_MINUTES,
      bans: total,
      servers: SERVERS,
      sendingMs,
      refused: refused.length,
      refusedSample: refused.slice(0, 5),
      writes,
      neededWrites: needed,
      ratio,
      arrivalP99Ms: arrivalP99,
      missing,
      callP99Ms: callP99,
    };
    const complete = refused.length === 0 && missing === 0;
    ctx.report.budget(
      SECTION,
      FIGURES.writes,
      ratio,
      `${fmt.ratio(ratio)} (${writes} writes, ${needed} needed, for ${fmt.int(total)} bans x 2 lists in ${fmt.ms(sendingMs)})` +
        (complete ? '' : `; ${refused.length} calls refused, ${missing} items never at Cloudflare`),
      `1.00 ± ${BUDGET.serverWritesRatioSlack}`,
      (value) => complete && Math.abs(value - 1) <= BUDGET.serverWritesRatioSlack,
    );
    ctx.report.budget(
      SECTION,
      FIGURES.arrival,
      arrivalP99,
      `${fmt.ms(arrivalP99)} (${fmt.int(arrivals.length)} items)`,
      `< ${fmt.ms(BUDGET.serverBanArrivalP99Ms)}`,
      (value) => complete && value < BUDGET.serverBanArrivalP99Ms,
    );
    ctx.report.budget(
      SECTION,
      FIGURES.calls,
      callP99,
      `${fmt.ms(callP99)} (${fmt.int(callMs.length)} calls)`,
      `< ${fmt.ms(BUDGET.serverCallP99Ms)}`,
      (value) => value < BUDGET.serverCallP99Ms,
    );
  } catch (err) {
    ctx.report.missing(SECTION, reasonOf(err), [
      { name: FIGURES.writes, limit: `1.00 ± ${BUDGET.serverWritesRatioSlack}` },
      { name: FIGURES.arrival, limit: `< ${fmt.ms(BUDGET.serverBanArrivalP99Ms)}` },
      { name: FIGURES.calls, limit: `< ${fmt.ms(BUDGET.serverCallP99Ms)}` },
    ]);
  }
}
