/**
 * What every section receives (the stack the benchmark started, the seeded data, the two people's API
 * clients, the report) and the helpers several sections share.
 */
import { performance } from 'node:perf_hooks';
import {
  banListEndpoints,
  banListItemEndpoints,
  pathOf,
  type BanListItemSort,
  type SortOrder,
} from '@guardian/contract';
import type { ChildBundles } from '../lib/build-children';
import { ApiError, type Api } from '../lib/api';
import { fmt, type Report } from '../lib/report';
import type { ServerChild, TimedSandbox } from '../lib/stack';
import type { Seeded } from '../dataset';
import { BIG_LIST_ITEMS, PAGE_SIZE } from '../options';

export interface Context {
  report: Report;
  bundles: ChildBundles;
  timed: TimedSandbox;
  server: ServerChild;
  seeded: Seeded;
  lists: Api;
  zones: Api;
  /** The URL key of each list in the console's API (its Cloudflare list id), once the lists are pulled. */
  listKeys: { big?: string; small?: string };
}

/**
 * What a section that seeds its own rows on the benchmark's server receives: the report, the server,
 * and how long each of its loads runs.
 */
export interface SeededSectionContext extends Pick<Context, 'report' | 'server'> {
  durationS: number;
}

export async function pullLists(ctx: Context): Promise<void> {
  if (ctx.listKeys.big) return;
  const started = performance.now();
  ctx.timed.sandbox.control.resetCalls();
  await ctx.lists.request('POST', banListEndpoints.update.path);
  const updateMs = performance.now() - started;
  const itemCalls = ctx.timed.sandbox.control.callCount({ path: /\/items/ });
  const rows = await ctx.lists.request<ListRow[]>('GET', banListEndpoints.list.path);
  const keyOf = (name: string) => {
    const row = rows.find((candidate) => candidate.list_name === name);
    if (!row) throw new Error(`GET /api/cloudflare/banlists has no list named ${name} after the update`);
    return String(row.list_id ?? row.id);
  };
  ctx.listKeys.big = keyOf(ctx.seeded.bigList.name);
  ctx.listKeys.small = keyOf(ctx.seeded.smallList.name);
  ctx.report.data.listsUpdate = { ms: updateMs, itemCalls };
  ctx.report.row({
    section: 'Sync',
    figure: 'Pull lists (POST /banlists/update)',
    value: `${fmt.ms(updateMs)}, ${itemCalls} item calls`,
  });
}

/** For sections run without the sync section: pull the lists and sync the big one, unreported. */
export async function ensureMirrored(ctx: Context): Promise<void> {
  await pullLists(ctx);
  const key = ctx.listKeys.big!;
  const page = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { page: 1 }));
  if (page.totalItems === BIG_LIST_ITEMS) return;
  console.log(`  (syncing the ${fmt.int(BIG_LIST_ITEMS)}-item list first)`);
  await ctx.lists.request('POST', pathOf(banListItemEndpoints.sync, { list_id: key }));
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A short reason for a section that could not run: a missing route says which module has not landed. */
export function reasonOf(err: unknown): string {
  if (err instanceof ApiError && err.routeMissing)
    return `route missing: ${err.method} ${err.path.split('?')[0]} (module not landed?)`;
  if (err instanceof ApiError)
    return `${err.method} ${err.path.split('?')[0]} answered ${err.status}: ${err.body.slice(0, 160)}`;
  return err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : String(err);
}

interface ListRow {
  id?: number | string;
  list_id?: string;
  list_name?: string;
  items?: number;
}

export interface ItemsPage {
  items: { id?: number | string; ip?: string; comment?: string }[];
  totalItems: number;
}

export function itemsPath(
  listKey: string,
  query: { search?: string; page: number; sort?: BanListItemSort; order?: SortOrder },
): string {
  const params = new URLSearchParams({
    search: query.search ?? '',
    page: String(query.page),
    per_page: String(PAGE_SIZE),
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.order ? { order: query.order } : {}),
  });
  return `${pathOf(banListItemEndpoints.page, { list_id: listKey })}?${params}`;
}

/** The id of the list's item holding `ip`, found by a search for it (an add's answer is not kept). */
export async function itemIdOf(api: Api, listKey: string, ip: string): Promise<string | number> {
  const found = await api.request<ItemsPage>('GET', itemsPath(listKey, { search: ip, page: 1 }));
  const item = found.items.find((candidate) => candidate.ip === ip);
  if (!item?.id) throw new Error(`the added item ${ip} is not in the list's items (search)`);
  return item.id;
}

/** Removes the list's item holding `ip` (an item a section added, so the data stay as seeded). */
export async function removeItemOf(api: Api, listKey: string, ip: string): Promise<void> {
  const itemId = await itemIdOf(api, listKey, ip);
  await api.request('DELETE', pathOf(banListItemEndpoints.remove, { list_id: listKey, item_id: itemId }));
}
