/**
 * Expiry (issue 15): 50,000 items of one list due at once, removed by Guardian's expiry job. They are
 * imported with one expiry date (the import's job), then the sandbox's calls are counted from the
 * moment they are due until Cloudflare has none of them: DELETEs against the fewest the batch size
 * allows (ceil(n / 100,000): one), every Cloudflare call, and the Lists write budget those writes take
 * (1,000,000 item changes and 30,000 writes per 12 hours per account) and the request budget (1,200
 * per 5 minutes per token). The server sweeps every second here (GUARDIAN_EXPIRY_SWEEP_SECONDS, run.ts).
 */
import { performance } from 'node:perf_hooks';
import { banListEndpoints, listCapacityEndpoints, pathOf } from '@guardian/contract';
import { CLOUDFLARE_LIST_WRITE_LIMITS } from '../../apps/server/src/cloudflare/list-write-budget';
import { EXPIRY_BATCH } from '../../apps/server/src/modules/ban-list-expiry';
import { fmt } from '../lib/report';
import { reasonOf, type Context } from './context';

const SECTION = 'Expiry';
const FIGURE =
  'Expiry of 50,000 items due at once: removed at Cloudflare in the minimum calls, within the budgets';
const ITEMS = 50_000;
/** Ids per DELETE. */
const BATCH = EXPIRY_BATCH;
/** Cloudflare's Lists write budget per account, as the server keeps it. */
const LIST_WRITES = CLOUDFLARE_LIST_WRITE_LIMITS;
const REQUESTS_PER_5_MIN = 1_200;
const WAIT_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function expirySection(ctx: Context): Promise<void> {
  const { control } = ctx.timed.sandbox;
  const accountId = ctx.seeded.smallList.accountId;
  try {
    const list = control.addList(accountId, { name: 'bench_expiry', kind: 'ip' });
    await ctx.lists.request('POST', banListEndpoints.update.path);
    // Cloudflare's API does not say an account's plan: without it Guardian assumes Free (10,000 items).
    await ctx.lists.request('PUT', pathOf(listCapacityEndpoints.setPlan, { account_id: accountId }), {
      plan: 'enterprise',
    });
    const text = Array.from(
      { length: ITEMS },
      (_, i) => `10.${200 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`,
    ).join('\n');
    const base = `/api/cloudflare/banlists/${list.id}/items/import`;
    const preview = await ctx.lists.request<{ id: string; to_add: number }>('POST', `${base}/preview`, {
      text,
    });
    if (preview.to_add !== ITEMS) throw new Error(`the import's preview would add ${preview.to_add} items`);
    // Due shortly after the import ends: its job sends the 50,000 items first.
    const importStarted = performance.now();
    const dueAt = new Date(Date.now() + 120_000);
    await ctx.lists.request('POST', `${base}/${preview.id}`, { expires: dueAt.toISOString() });
    const importMs = performance.now() - importStarted;
    if (control.getListItems(accountId, list.id).length !== ITEMS)
      throw new Error('the import did not leave 50,000 items at Cloudflare');
    const lead = dueAt.getTime() - Date.now();
    if (lead < 1_000)
      throw new Error(`the import took ${fmt.ms(importMs)}: the items were due before it ended`);
    await sleep(lead);

    control.resetCalls();
    const started = performance.now();
    while (control.getListItems(accountId, list.id).length > 0) {
      if (performance.now() - started > WAIT_MS)
        throw new Error('the items were still at Cloudflare after 10 minutes');
      await sleep(200);
    }
    const goneMs = performance.now() - started;
    const calls = control.callLog();
    const deletes = calls.filter((call) => call.method === 'DELETE' && /\/items$/.test(call.path)).length;
    const writes = calls.filter((call) => call.method !== 'GET').length;
    // The mirror follows each batch once Cloudflare has applied it: its DELETE of the batch's rows
    // commits a moment after Cloudflare's count reaches 0 (read at most 10 s, 100 ms apart).
    const mirrorOf = () =>
      ctx.lists.request<{ id: number; list_id: string; items: number }[]>('GET', banListEndpoints.list.path);
    let mirrored = await mirrorOf();
    let left = mirrored.find((row) => row.list_id === list.id)?.items;
    const mirrorStarted = performance.now();
    while (left !== 0 && performance.now() - mirrorStarted < 10_000) {
      await sleep(100);
      mirrored = await mirrorOf();
      left = mirrored.find((row) => row.list_id === list.id)?.items;
    }
    const mirrorMs = performance.now() - mirrorStarted;
    const fewest = Math.ceil(ITEMS / BATCH);
    ctx.report.data.expiry = {
      items: ITEMS,
      importMs,
      goneMs,
      deletes,
      writes,
      calls: calls.length,
      mirrorLeft: left,
      mirrorMs,
    };
    ctx.report.budget(
      SECTION,
      FIGURE,
      deletes,
      `${deletes} DELETEs (fewest: ${fewest}), ${calls.length} Cloudflare calls in all, gone ${fmt.ms(goneMs)} after due; ` +
        `${fmt.int(ITEMS)} of ${fmt.int(LIST_WRITES.items)} item changes, ${writes} of ${fmt.int(LIST_WRITES.requests)} writes; ` +
        `mirror ${left ?? '?'} left ${fmt.ms(mirrorMs)} later`,
      `${fewest} DELETEs, under ${REQUESTS_PER_5_MIN} calls`,
      (value) =>
        value === fewest && writes <= LIST_WRITES.requests && calls.length < REQUESTS_PER_5_MIN && left === 0,
    );
    // The list goes again (it is empty), so the other sections see the estate as seeded.
    const row = mirrored.find((entry) => entry.list_id === list.id);
    if (row)
      await ctx.lists
        .request('DELETE', pathOf(banListEndpoints.remove, { id: row.id }))
        .catch(() => undefined);
  } catch (err) {
    ctx.report.missing(SECTION, reasonOf(err), [
      { name: FIGURE, limit: `${Math.ceil(ITEMS / BATCH)} DELETEs` },
    ]);
  }
}
