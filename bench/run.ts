/**
 * `npm run bench`: holds Guardian to its performance budgets at the scale people use it (ban lists of
 * 500,000 items, 1,000 zones) and prints one table; the same figures go to bench/results/ as JSON.
 * bench/README.md explains every figure. Options: `node --import tsx bench/run.ts --help`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  accountEndpoints,
  banListEndpoints,
  banListItemEndpoints,
  dnsRecordEndpoints,
  firewallRuleEndpoints,
  pathOf,
  zoneEndpoints,
} from '@guardian/contract';
import type { Browser } from 'playwright-core';
import { api, ApiError, type Api } from './lib/api';
import { buildChildren, type ChildBundles } from './lib/build-children';
import { auditSection } from './lib/audit';
import { ipSearchSection } from './lib/ip-search';
import { fairnessSection } from './lib/fairness';
import { load, warm, type LoadResult } from './lib/load';
import type { BareAnswer } from './lib/protocol';
import { fmt, readSoak, Report } from './lib/report';
import { ROOT, startBare, startSandbox, startServer, type ServerChild, type TimedSandbox } from './lib/stack';
import { launchBrowser, lazyChunks, routeBytes, timeItemsScreen, type RouteBytes } from './lib/web';

// ---------------------------------------------------------------------------------------------------
// Options and budgets
// ---------------------------------------------------------------------------------------------------

const SECTIONS = ['sync', 'reads', 'zones', 'writes', 'web', 'fairness', 'audit', 'ipsearch'] as const;
type Section = (typeof SECTIONS)[number];

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    items: { type: 'string', default: '500000' },
    zones: { type: 'string', default: '1000' },
    'audit-rows': { type: 'string', default: '2000000' },
    'ipsearch-items': { type: 'string', default: '1000000' },
    'export-items': { type: 'string', default: '500000' },
    only: { type: 'string' },
    skip: { type: 'string' },
    repeat: { type: 'string', default: '5' },
    'no-write': { type: 'boolean', default: false },
    'web-dist': { type: 'string' },
    results: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log(`npm run bench [-- options]     (or: node --import tsx bench/run.ts [options] after a build)

  --duration=S      seconds of load per read figure (default 5; each also gets a 2 s warm-up)
  --connections=N   concurrent connections of the read load (default 50)
  --items=N         items of the big ban list (default 500000; smaller for a quick check)
  --zones=N         zones of the zones user (default 1000)
  --audit-rows=N    events in the audit trail (default 2000000)
  --ipsearch-items=N  items over the 200 lists "Where is this address?" searches (default 1000000)
  --export-items=N  items of the list the export streams (default 500000)
                    quick check: --only=ipsearch --items=2000 --ipsearch-items=100000 --export-items=50000 --duration=2
  --repeat=N        times each write is repeated (default 5; the median is reported)
  --only=a,b        run only these sections: ${SECTIONS.join(', ')}
  --skip=a,b        skip these sections
  --no-write        print the table but write nothing under bench/results/
  --web-dist=DIR    the built web app to serve (default apps/web/dist, which npm run bench builds)
  --results=DIR     where the JSON goes (default bench/results)
  DATABASE_URL=postgres://...  runs on PostgreSQL (own schema, dropped at the end); else PGlite in a temp folder
  CHROMIUM_PATH=...            Chromium to drive (default /usr/bin/chromium)`);
  process.exit(0);
}

const positive = (name: string, text: string | undefined): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, not ${text}`);
  return value;
};

const DURATION_S = positive('duration', args.duration);
const CONNECTIONS = positive('connections', args.connections);
const BIG_LIST_ITEMS = Math.floor(positive('items', args.items));
const SMALL_LIST_ITEMS = Math.min(10_000, BIG_LIST_ITEMS);
const ZONE_COUNT = Math.floor(positive('zones', args.zones));
const REPEAT = Math.floor(positive('repeat', args.repeat));
const AUDIT_ROWS = Math.floor(positive('audit-rows', args['audit-rows']));
const IPSEARCH_ITEMS = Math.floor(positive('ipsearch-items', args['ipsearch-items']));
const EXPORT_ITEMS = Math.floor(positive('export-items', args['export-items']));
const picked = (list: string | undefined) => new Set(list ? list.split(',').map((s) => s.trim()) : []);
const only = picked(args.only);
const skipped = picked(args.skip);
for (const name of [...only, ...skipped]) {
  if (!SECTIONS.includes(name as Section))
    throw new Error(`Unknown section "${name}": use ${SECTIONS.join(', ')}`);
}
const runs = (section: Section) => (only.size === 0 || only.has(section)) && !skipped.has(section);

/** Cloudflare's largest page of list items: the fewest calls a cursor walk of n items can make. */
const CLOUDFLARE_ITEMS_PAGE = 500;
const PAGE_SIZE = 100;
const SEARCH_DEBOUNCE_MS = 300;

const BUDGET = {
  readP99Ms: 50,
  readBaselineShare: 0.5,
  zonesP99Ms: 50,
  zonesQueriesPerRequest: 1,
  syncItemsPerSecond: 50_000,
  syncCallsRatio: 1,
  syncRssBytes: 300 * 1024 * 1024,
  loginGzipBytes: 150 * 1024,
  firstPageMs: 1000,
  searchAfterDebounceMs: 300,
};

const RESULTS_DIR = args.results ? resolve(args.results) : join(ROOT, 'bench', 'results');
const WEB_DIST = args['web-dist'] ? resolve(args['web-dist']) : join(ROOT, 'apps', 'web', 'dist');

// ---------------------------------------------------------------------------------------------------
// The data set
// ---------------------------------------------------------------------------------------------------

const REASONS = ['ssh brute force', 'credential stuffing', 'scanner', 'sql injection probe', 'spam relay'];
/** Every 50,000th item of the big list is a honeypot catch: a search that matches few (10 of 500,000). */
const RARE_EVERY = 50_000;
const RARE_OFFSET = 12_345;
const SEARCH_FEW = 'honeypot';
/** One item in five: a search that matches many (100,000 of 500,000). */
const SEARCH_MANY = 'scanner';

function bigListItem(i: number): { ip: string; comment: string } {
  const comment =
    i % RARE_EVERY === RARE_OFFSET ? `honeypot trap #${i}` : `${REASONS[i % REASONS.length]} #${i}`;
  return { ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, comment };
}

function smallListItem(i: number): { ip: string; comment: string } {
  return { ip: `172.16.${(i >> 8) & 255}.${i & 255}`, comment: `${REASONS[i % REASONS.length]} #${i}` };
}

interface Seeded {
  listsToken: string;
  bigList: { accountId: string; listId: string; name: string };
  smallList: { accountId: string; listId: string; name: string };
  zoneAccounts: { name: string; token: string; accountId: string }[];
  /** The zone whose DNS and custom rules the write figures change (with 100 custom rules). */
  writeZone: { id: string; token: string };
  listAccounts: { name: string; token: string }[];
}

async function seedSandbox(timed: TimedSandbox): Promise<Seeded> {
  const { control } = timed.sandbox;
  const started = performance.now();
  // The big list fills an Enterprise account's 500,000-item quota, so the writes go to the small one.
  const big = control.addAccount({ name: 'Bench Big Lists', plan: 'enterprise' });
  const small = control.addAccount({ name: 'Bench Small Lists', plan: 'enterprise' });
  const bigToken = 'bench-token-big-lists';
  const smallToken = 'bench-token-small-lists';
  control.addToken({ value: bigToken, accountIds: [big.id] });
  control.addToken({ value: smallToken, accountIds: [small.id] });
  const bigList = control.addList(big.id, { name: 'bench_500k', kind: 'ip', description: 'Benchmark' });
  control.seedListItems(
    big.id,
    bigList.id,
    Array.from({ length: BIG_LIST_ITEMS }, (_, i) => bigListItem(i)),
  );
  const smallList = control.addList(small.id, { name: 'bench_10k', kind: 'ip', description: 'Benchmark' });
  control.seedListItems(
    small.id,
    smallList.id,
    Array.from({ length: SMALL_LIST_ITEMS }, (_, i) => smallListItem(i)),
  );

  // The zones person: 1,000 zones over four accounts (several accounts exercise the join).
  const zoneAccounts: Seeded['zoneAccounts'] = [];
  const perAccount = Math.ceil(ZONE_COUNT / 4);
  for (let a = 0; a < 4; a++) {
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

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A short reason for a section that could not run: a missing route says which module has not landed. */
function reasonOf(err: unknown): string {
  if (err instanceof ApiError && err.routeMissing)
    return `route missing: ${err.method} ${err.path.split('?')[0]} (module not landed?)`;
  if (err instanceof ApiError)
    return `${err.method} ${err.path.split('?')[0]} answered ${err.status}: ${err.body.slice(0, 160)}`;
  return err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : String(err);
}

interface DatabaseRss {
  before: number;
  peak: number;
}

/**
 * Samples the server's RSS every 25 ms while `work` runs (from /proc: no help from the server), and
 * its V8 heap every 250 ms; answers the peak RSS and the memory breakdown sampled nearest to it. On
 * PGlite it samples the database's host process too (a process of its own, as PostgreSQL is).
 */
async function peakRss<T>(
  server: ServerChild,
  work: () => Promise<T>,
): Promise<{
  result: T;
  peak: number;
  before: number;
  atPeak: NodeJS.MemoryUsage | null;
  database: DatabaseRss | null;
}> {
  const before = server.rss();
  let peak = before;
  const databaseBefore = server.databaseRss();
  const database = databaseBefore === null ? null : { before: databaseBefore, peak: databaseBefore };
  let atPeak: NodeJS.MemoryUsage | null = null;
  let sampling = false;
  const sample = () => {
    try {
      peak = Math.max(peak, server.rss());
      if (database) database.peak = Math.max(database.peak, server.databaseRss() ?? 0);
    } catch {
      // The process is gone; the work's own error says why.
    }
  };
  const timer = setInterval(sample, 25);
  const heapTimer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    void server
      .memory()
      .then((memory) => {
        if (!atPeak || memory.rss >= atPeak.rss) atPeak = memory;
      })
      .catch(() => undefined)
      .finally(() => (sampling = false));
  }, 250);
  try {
    const result = await work();
    sample();
    return { result, peak, before, atPeak, database };
  } finally {
    clearInterval(timer);
    clearInterval(heapTimer);
  }
}

interface ListRow {
  id?: number | string;
  list_id?: string;
  list_name?: string;
  items?: number;
}

interface ItemsPage {
  items: { id?: number | string; ip?: string; comment?: string }[];
  totalItems: number;
}

function itemsPath(listKey: string, query: { search?: string; page: number; sort?: 'ip' }): string {
  const params = new URLSearchParams({
    search: query.search ?? '',
    page: String(query.page),
    per_page: String(PAGE_SIZE),
    ...(query.sort ? { sort: query.sort } : {}),
  });
  return `${pathOf(banListItemEndpoints.page, { list_id: listKey })}?${params}`;
}

// ---------------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------------

interface Context {
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

async function pullLists(ctx: Context): Promise<void> {
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

/** `(V8 heap 120 MB, external 30 MB)`: what the resident memory near its peak is made of. */
function memoryShare(memory: NodeJS.MemoryUsage | null): string {
  if (!memory) return '';
  return ` (V8 heap ${fmt.mb(memory.heapTotal)} of which used ${fmt.mb(memory.heapUsed)}, external ${fmt.mb(memory.external)})`;
}

/** Where a request's database time went: its three slowest kinds of statement, with their total time. */
function slowestStatements(msBySql: Record<string, number>): string {
  const label = (sql: string) =>
    sql
      .replace(/\$\d+/g, '?')
      .replace(/^(SELECT .{0,30}?) FROM (\S+).*$/i, '$1 FROM $2')
      .slice(0, 48);
  return Object.entries(msBySql)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([sql, ms]) => `${label(sql)}: ${fmt.ms(ms)}`)
    .join(', ');
}

/**
 * Deletes the big list's first item (10.0.0.0) through the sandbox's API, as a person would at
 * Cloudflare, and adds one that sorts before every other (9.9.9.9): the list keeps its size, every
 * item moves one place.
 */
async function replaceFirstItem(timed: TimedSandbox, seeded: Seeded): Promise<void> {
  const { accountId, listId } = seeded.bigList;
  const items = `${timed.baseUrl}/accounts/${accountId}/rules/lists/${listId}/items`;
  const headers = { authorization: `Bearer ${seeded.listsToken}`, 'content-type': 'application/json' };
  const first = bigListItem(0).ip;
  const found = (await (await fetch(`${items}?search=${first}&per_page=10`, { headers })).json()) as {
    result: { id: string; ip: string }[];
  };
  const item = found.result.find((candidate) => candidate.ip === first);
  if (!item) throw new Error(`the sandbox list has no item ${first} to replace`);
  const response = await fetch(items, {
    method: 'DELETE',
    headers,
    body: JSON.stringify({ items: [{ id: item.id }] }),
  });
  if (!response.ok) throw new Error(`deleting ${first} at the sandbox answered ${response.status}`);
  await timed.sandbox.control.settle();
  timed.sandbox.control.seedListItems(accountId, listId, [
    { ip: '9.9.9.9', comment: 'added before every other item' },
  ]);
}

/** For sections run without the sync section: pull the lists and sync the big one, unreported. */
async function ensureMirrored(ctx: Context): Promise<void> {
  await pullLists(ctx);
  const key = ctx.listKeys.big!;
  const page = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { page: 1 }));
  if (page.totalItems === BIG_LIST_ITEMS) return;
  console.log(`  (syncing the ${fmt.int(BIG_LIST_ITEMS)}-item list first)`);
  await ctx.lists.request('POST', pathOf(banListItemEndpoints.sync, { list_id: key }));
}

async function syncSection(ctx: Context): Promise<void> {
  const { report, timed, server } = ctx;
  const budgets = [
    {
      name: `${fmt.int(BIG_LIST_ITEMS)} items: items/s written`,
      limit: `>= ${fmt.int(BUDGET.syncItemsPerSecond)}/s`,
    },
    { name: 'Cloudflare calls / minimum', limit: '= 1.00' },
    {
      name: `Peak server RSS, ${fmt.int(BIG_LIST_ITEMS)}-item sync`,
      limit: `< ${fmt.mb(BUDGET.syncRssBytes)}`,
    },
  ];
  try {
    await pullLists(ctx);
  } catch (err) {
    report.missing('Sync', reasonOf(err), budgets);
    return;
  }
  const figures: Record<string, unknown>[] = [];
  const { control } = timed.sandbox;
  const { accountId, listId } = ctx.seeded.bigList;
  const runs: {
    label: string;
    key: string;
    n: number;
    big: boolean;
    writes: boolean;
    before?: () => void | Promise<void>;
  }[] = [
    {
      label: `${fmt.int(SMALL_LIST_ITEMS)} items`,
      key: ctx.listKeys.small!,
      n: SMALL_LIST_ITEMS,
      big: false,
      writes: true,
    },
    // Into an empty mirror.
    {
      label: `${fmt.int(BIG_LIST_ITEMS)} items`,
      key: ctx.listKeys.big!,
      n: BIG_LIST_ITEMS,
      big: true,
      writes: true,
    },
    // Nothing changed at Cloudflare: the common "Update from Cloudflare".
    {
      label: `${fmt.int(BIG_LIST_ITEMS)} items, unchanged`,
      key: ctx.listKeys.big!,
      n: BIG_LIST_ITEMS,
      big: true,
      writes: false,
    },
    // One comment changed at Cloudflare: the server may update it in place.
    {
      label: `${fmt.int(BIG_LIST_ITEMS)} items, a comment changed`,
      key: ctx.listKeys.big!,
      n: BIG_LIST_ITEMS,
      big: true,
      writes: false,
      before: () =>
        void control.seedListItems(accountId, listId, [
          { ...bigListItem(1), comment: 'changed for the benchmark' },
        ]),
    },
    // The first item replaced by another at the start: every item moves, the whole mirror is written again.
    {
      label: `${fmt.int(BIG_LIST_ITEMS)} items, first item replaced`,
      key: ctx.listKeys.big!,
      n: BIG_LIST_ITEMS,
      big: true,
      writes: true,
      before: () => replaceFirstItem(timed, ctx.seeded),
    },
  ];
  let worstRatio = 0;
  let peakBig = 0;
  /** PGlite only: its host process's peak, shown beside the server's (PostgreSQL's memory is not shown either). */
  let peakDatabaseBig: number | undefined;
  for (const run of runs) {
    try {
      await run.before?.();
      timed.sandbox.control.resetCalls();
      timed.clear();
      await server.resetQueries();
      const started = performance.now();
      const {
        peak,
        before,
        atPeak,
        database: databaseRss,
      } = await peakRss(server, () =>
        ctx.lists.request('POST', pathOf(banListItemEndpoints.sync, { list_id: run.key })),
      );
      const wallMs = performance.now() - started;
      const calls = timed.sandbox.control.callCount({ path: /\/items/ });
      const minimum = Math.ceil(run.n / CLOUDFLARE_ITEMS_PAGE);
      const sandboxMs = timed.calls.reduce((sum, call) => sum + call.durationMs, 0);
      const database = await server.queries();
      const page = await ctx.lists.request<ItemsPage>('GET', itemsPath(run.key, { page: 1 }));
      const itemsPerSecond = run.n / (wallMs / 1000);
      const ratio = calls / minimum;
      worstRatio = Math.max(worstRatio, ratio);
      if (run.big) peakBig = Math.max(peakBig, peak);
      if (run.big && databaseRss) peakDatabaseBig = Math.max(peakDatabaseBig ?? 0, databaseRss.peak);
      figures.push({
        ...run,
        wallMs,
        itemsPerSecond,
        calls,
        minimum,
        ratio,
        sandboxMs,
        rssBefore: before,
        rssPeak: peak,
        memoryAtPeak: atPeak,
        databaseRss,
        totalItemsAfter: page.totalItems,
        database: { roundTrips: database.total, msBySql: database.msBySql },
      });
      report.row({
        section: 'Sync',
        figure: `${run.label}: wall time`,
        value: `${fmt.ms(wallMs)} (sandbox's own ${fmt.ms(sandboxMs)}; database ${slowestStatements(database.msBySql)})`,
        note: page.totalItems === run.n ? undefined : `mirror holds ${page.totalItems}, expected ${run.n}`,
      });
      const shownRate = `${fmt.int(itemsPerSecond)}/s`;
      if (run.big && run.writes) {
        report.budget(
          'Sync',
          `${run.label}: items/s written`,
          itemsPerSecond,
          shownRate,
          `>= ${fmt.int(BUDGET.syncItemsPerSecond)}/s`,
          (v) => v >= BUDGET.syncItemsPerSecond,
        );
      } else {
        report.row({
          section: 'Sync',
          figure: `${run.label}: items/s ${run.writes ? 'written' : 'compared'}`,
          value: shownRate,
        });
      }
      report.row({
        section: 'Sync',
        figure: `${run.label}: Cloudflare item calls`,
        value: `${calls} (minimum ${minimum}, ratio ${fmt.ratio(ratio)})`,
      });
      report.row({
        section: 'Sync',
        figure: `${run.label}: server RSS before -> peak`,
        value: `${fmt.mb(before)} -> ${fmt.mb(peak)}${memoryShare(atPeak)}`,
      });
      if (databaseRss) {
        report.row({
          section: 'Sync',
          figure: `${run.label}: embedded database process RSS before -> peak`,
          value: `${fmt.mb(databaseRss.before)} -> ${fmt.mb(databaseRss.peak)}`,
        });
      }
    } catch (err) {
      if (!run.big) {
        report.missing('Sync', `${run.label}: ${reasonOf(err)}`);
        continue;
      }
      report.missing('Sync', `${run.label}: ${reasonOf(err)}`, budgets);
      report.data.sync = figures;
      return;
    }
  }
  report.data.sync = figures;
  report.budget(
    'Sync',
    'Cloudflare calls / minimum (worst)',
    worstRatio,
    fmt.ratio(worstRatio),
    '= 1.00',
    (v) => Math.abs(v - BUDGET.syncCallsRatio) < 0.005,
  );
  report.budget(
    'Sync',
    `Peak server RSS, ${fmt.int(BIG_LIST_ITEMS)}-item sync`,
    peakBig,
    fmt.mb(peakBig),
    `< ${fmt.mb(BUDGET.syncRssBytes)}`,
    (v) => v < BUDGET.syncRssBytes,
  );
  if (peakDatabaseBig !== undefined) {
    report.row({
      section: 'Sync',
      figure: `Peak RSS of the embedded database's process, ${fmt.int(BIG_LIST_ITEMS)}-item sync`,
      value: fmt.mb(peakDatabaseBig),
      note: 'PGlite in its own process, as PostgreSQL is; not the server',
    });
  }
}

interface ReadTarget {
  name: string;
  path: string;
  api: Api;
  body?: string;
  check?: (body: unknown) => string | undefined;
}

interface ServerRead {
  load: LoadResult;
  /** Database round trips per request under load (the auth guard's lookup apart). */
  queries: { total: number; auth: number };
  /** EXPLAIN ANALYZE of its statements, when the read missed its p99 budget. */
  plans?: unknown;
}

interface ReadResult {
  /** As configured: the items' answer cache (if the server has one) serves repeats of the same page. */
  server: ServerRead;
  /** The same reads with that cache turned off: the database answers every request. */
  uncached?: ServerRead;
  bare: LoadResult;
}

async function loadServer(ctx: Context, target: ReadTarget): Promise<ServerRead> {
  const headers = { authorization: `Bearer ${target.api.token}` };
  const options = {
    url: ctx.server.origin + target.path,
    headers,
    connections: CONNECTIONS,
    durationS: DURATION_S,
  };
  await warm(options);
  await ctx.server.resetQueries();
  const result = await load(options);
  const counts = await ctx.server.queries();
  let plans: unknown;
  if (result.p99 >= BUDGET.readP99Ms) {
    // Why it is slow: the database's plan of the statements this read ran, with their parameters.
    await ctx.server.resetQueries();
    await target.api.request('GET', target.path);
    plans = await ctx.server.explain().catch((err: unknown) => reasonOf(err));
  }
  const requests = Math.max(1, result.requests);
  return { load: result, queries: { total: counts.total / requests, auth: counts.auth / requests }, plans };
}

/**
 * Loads `path` on the server and the same answer on the baseline, twice each in turn (server,
 * baseline, server, baseline), keeping each one's better run: this machine is shared, and a burst of
 * someone else's work during one run would otherwise decide the ratio. Then, for `uncached`, the
 * server once more without its answer caches.
 */
async function measureRead(
  ctx: Context,
  target: ReadTarget,
  bareOrigin: string,
  uncached: boolean,
): Promise<ReadResult> {
  const options = { url: bareOrigin + target.path, connections: CONNECTIONS, durationS: DURATION_S };
  const loadBare = async () => {
    await warm(options);
    return load(options);
  };
  const servers = [await loadServer(ctx, target)];
  const bares = [await loadBare()];
  servers.push(await loadServer(ctx, target));
  bares.push(await loadBare());
  const server = servers.reduce((a, b) => (b.load.requestsPerSecond > a.load.requestsPerSecond ? b : a));
  const bare = bares.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  let withoutCache: ServerRead | undefined;
  if (uncached && (await ctx.server.caches(false)).length > 0) {
    try {
      withoutCache = await loadServer(ctx, target);
    } finally {
      await ctx.server.caches(true);
    }
  }
  return { server, uncached: withoutCache, bare };
}

function loadProblem(result: LoadResult): string | undefined {
  if (result.requests === 0) return 'no request was answered within the run';
  if (result.non2xx > 0 || result.errors > 0) return `${result.non2xx} non-2xx, ${result.errors} errors`;
  return undefined;
}

/** The p99 a budget judges: a run with failed or no answers fails whatever its latency. */
const judgedP99 = (result: LoadResult) => (loadProblem(result) ? Number.POSITIVE_INFINITY : result.p99);

async function readsSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const names = [
    'first page',
    'middle page',
    'last page',
    `search "${SEARCH_FEW}" (few)`,
    `search "${SEARCH_MANY}" (many)`,
    'sorted by IP Address, middle page',
  ];
  const budgetsOf = (name: string) => [
    { name: `${name}: p99`, limit: `< ${BUDGET.readP99Ms} ms` },
    { name: `${name}: req/s vs bare`, limit: `>= ${BUDGET.readBaselineShare}` },
  ];
  let targets: ReadTarget[];
  try {
    await ensureMirrored(ctx);
    const key = ctx.listKeys.big!;
    const first = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { page: 1 }));
    if (!Array.isArray(first.items) || typeof first.totalItems !== 'number')
      throw new Error('GET .../items does not answer {items, totalItems}');
    if (first.totalItems !== BIG_LIST_ITEMS) {
      throw new Error(
        `the mirror holds ${first.totalItems} items, not ${BIG_LIST_ITEMS}: run the sync section first`,
      );
    }
    const pages = Math.ceil(BIG_LIST_ITEMS / PAGE_SIZE);
    targets = [
      { name: names[0]!, path: itemsPath(key, { page: 1 }), api: ctx.lists },
      { name: names[1]!, path: itemsPath(key, { page: Math.ceil(pages / 2) }), api: ctx.lists },
      { name: names[2]!, path: itemsPath(key, { page: pages }), api: ctx.lists },
      { name: names[3]!, path: itemsPath(key, { search: SEARCH_FEW, page: 1 }), api: ctx.lists },
      { name: names[4]!, path: itemsPath(key, { search: SEARCH_MANY, page: 1 }), api: ctx.lists },
      // The address order (migration 014's index): the middle page is the deepest from either end.
      {
        name: names[5]!,
        path: itemsPath(key, { page: Math.ceil(pages / 2), sort: 'ip' }),
        api: ctx.lists,
      },
    ];
  } catch (err) {
    report.missing('Reads', reasonOf(err), names.flatMap(budgetsOf));
    return;
  }
  await measureReads(ctx, 'Reads', targets, true, (target, result) =>
    reportRead(report, 'Reads', target, result, BUDGET.readP99Ms, true),
  );
  await reportExactCount(ctx);
}

/**
 * Shown, not judged: what the items screen's second call costs, the exact count of the broad search
 * (100,000 matches) asked for the first time in the list's version (the answer caches off), then again.
 */
async function reportExactCount(ctx: Context): Promise<void> {
  const path = `${pathOf(banListItemEndpoints.count, { list_id: ctx.listKeys.big! })}?search=${SEARCH_MANY}`;
  const figure = `exact count of search "${SEARCH_MANY}": first ask (caches off); again`;
  try {
    const timed = async () => {
      const started = performance.now();
      const answer = await ctx.lists.request<{ totalItems?: unknown }>('GET', path);
      if (typeof answer.totalItems !== 'number')
        throw new Error('GET .../items/count does not answer {totalItems}');
      return { ms: performance.now() - started, total: answer.totalItems };
    };
    let first: Awaited<ReturnType<typeof timed>>;
    await ctx.server.caches(false);
    try {
      first = await timed();
    } finally {
      await ctx.server.caches(true);
    }
    await timed(); // counted into the cache
    const again = await timed();
    ctx.report.row({
      section: 'Reads',
      figure,
      value: `${fmt.ms(first.ms)} (${first.total.toLocaleString('en-US')} matches); ${fmt.ms(again.ms)}`,
    });
  } catch (err) {
    ctx.report.row({ section: 'Reads', figure, value: `not measured: ${reasonOf(err)}` });
  }
}

/**
 * The rows of one read: p99 (a budget) and requests/s against the bare baseline (a budget when
 * `shareBudget`), as the server runs; then the same with its answer caches off, shown but not judged:
 * every request is then the first after a change, a diagnosis of the database's share (the first
 * visit after a change has its budget in the web section: first page visible).
 */
function reportRead(
  report: Report,
  section: string,
  target: ReadTarget,
  result: ReadResult,
  p99Limit: number,
  shareBudget: boolean,
): void {
  const variants: [string, ServerRead | undefined][] = [
    ['', result.server],
    [' (no cache)', result.uncached],
  ];
  for (const [suffix, read] of variants) {
    if (!read) continue;
    const judged = read === result.server;
    const perRequest = `${fmt.ratio(read.queries.total - read.queries.auth)} + ${fmt.ratio(read.queries.auth)} auth round trips/req`;
    const latency = `${fmt.ms(read.load.p99)} (p50 ${fmt.ms(read.load.p50)}; ${perRequest})`;
    if (judged) {
      report.budget(
        section,
        `${target.name}: p99`,
        judgedP99(read.load),
        latency,
        `< ${p99Limit} ms`,
        (v) => v < p99Limit,
        loadProblem(read.load),
      );
    } else {
      report.row({ section, figure: `${target.name}${suffix}: p99`, value: latency });
    }
    const share = read.load.requestsPerSecond / result.bare.requestsPerSecond;
    const shown = `${fmt.rps(read.load.requestsPerSecond)} vs ${fmt.rps(result.bare.requestsPerSecond)} = ${fmt.ratio(share)}`;
    const figure = `${target.name}${suffix}: req/s vs bare`;
    if (judged && shareBudget) {
      report.budget(
        section,
        figure,
        share,
        shown,
        `>= ${BUDGET.readBaselineShare}`,
        (v) => v >= BUDGET.readBaselineShare,
      );
    } else {
      report.row({ section, figure, value: shown });
    }
  }
}

async function measureReads(
  ctx: Context,
  section: 'Reads' | 'Zones',
  targets: ReadTarget[],
  uncached: boolean,
  onResult: (target: ReadTarget, result: ReadResult) => void,
): Promise<void> {
  // The real answers first, body and headers, for the baseline to serve.
  const routes: Record<string, BareAnswer> = {};
  for (const target of targets) {
    const { status, headers, text } = await target.api.raw('GET', target.path);
    if (status !== 200) throw new ApiError(status, 'GET', target.path, text);
    const problem = target.check?.(JSON.parse(text));
    if (problem) throw new Error(`GET ${target.path.split('?')[0]}: ${problem}`);
    routes[target.path] = { body: text, headers };
    target.body = text;
  }
  const bare = await startBare(ctx.bundles.bare, routes);
  const figures: Record<string, unknown> = {};
  try {
    for (const target of targets) {
      process.stdout.write(`  ${section}: ${target.name}...`);
      const result = await measureRead(ctx, target, bare.origin, uncached);
      const line = (read: ServerRead) =>
        `p99 ${fmt.ms(read.load.p99)}, ${fmt.rps(read.load.requestsPerSecond)}`;
      process.stdout.write(
        ` ${line(result.server)}${result.uncached ? `; no cache ${line(result.uncached)}` : ''}; bare ${fmt.rps(result.bare.requestsPerSecond)}\n`,
      );
      figures[target.name] = { path: target.path, bytes: Buffer.byteLength(target.body!), ...result };
      onResult(target, result);
    }
  } finally {
    bare.stop();
  }
  ctx.report.data[section.toLowerCase()] = figures;
}

async function zonesSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const budgets = [
    { name: `${fmt.int(ZONE_COUNT)} zones: p99`, limit: `< ${BUDGET.zonesP99Ms} ms` },
    { name: 'database round trips / request', limit: `<= ${BUDGET.zonesQueriesPerRequest} (+ auth)` },
  ];
  const target: ReadTarget = {
    name: `${fmt.int(ZONE_COUNT)} zones`,
    path: zoneEndpoints.list.path,
    api: ctx.zones,
    check: (body) =>
      Array.isArray(body) && body.length === ZONE_COUNT
        ? undefined
        : `expected ${ZONE_COUNT} zones, got ${Array.isArray(body) ? body.length : typeof body}`,
  };
  try {
    await measureReads(ctx, 'Zones', [target], true, (_, result) =>
      reportRead(report, 'Zones', target, result, BUDGET.zonesP99Ms, false),
    );
    // Round trips, exactly: a few requests one after another, counted by the proxy around the Db
    // (with the caches on, as the server runs; then off, as after every change of the zones).
    const roundTrips = async () => {
      const requests = 10;
      await ctx.server.resetQueries();
      for (let i = 0; i < requests; i++) await ctx.zones.request('GET', target.path);
      const counts = await ctx.server.queries();
      return {
        total: counts.total / requests,
        data: (counts.total - counts.auth) / requests,
        auth: counts.auth / requests,
        statements: counts.bySql,
      };
    };
    const cached = await roundTrips();
    let uncached: Awaited<ReturnType<typeof roundTrips>> | undefined;
    if ((await ctx.server.caches(false)).length > 0) {
      try {
        uncached = await roundTrips();
      } finally {
        await ctx.server.caches(true);
      }
    }
    report.data.zonesQueries = { cached, uncached };
    const shown = (trips: typeof cached) =>
      `${fmt.ratio(trips.data)} for the zones + ${fmt.ratio(trips.auth)} auth guard = ${fmt.ratio(trips.total)}`;
    report.budget(
      'Zones',
      'database round trips / request',
      cached.data,
      shown(cached) +
        (uncached ? `; after a change ${fmt.ratio(uncached.data)} + ${fmt.ratio(uncached.auth)}` : ''),
      `<= ${BUDGET.zonesQueriesPerRequest} (+ auth)`,
      (v) => v <= BUDGET.zonesQueriesPerRequest,
    );
  } catch (err) {
    report.missing('Zones', reasonOf(err), budgets);
  }
}

interface WriteFigure {
  action: string;
  wallMs: number;
  sandboxMs: number;
  beyondMs: number;
  calls: number;
  callList: string[];
}

/** One write, timed: wall time at the client, the sandbox's own time for the calls it caused, the calls. */
async function timedWrite(ctx: Context, action: string, work: () => Promise<unknown>): Promise<WriteFigure> {
  const { timed } = ctx;
  timed.sandbox.control.resetCalls();
  timed.clear();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const calls = timed.sandbox.control.callLog();
  const sandboxMs = timed.calls.reduce((sum, call) => sum + call.durationMs, 0);
  return {
    action,
    wallMs,
    sandboxMs,
    beyondMs: wallMs - sandboxMs,
    calls: calls.length,
    callList: calls.map((call) => `${call.method} ${call.path.replace(/[0-9a-f]{32}/g, ':id')}`),
  };
}

/** `GET /a, GET /a, PUT /b` -> `2 x GET /a, PUT /b` (paths shortened to their last segments). */
function compactCalls(calls: string[]): string {
  const short = calls.map((call) => call.replace(/^(\w+) .*?((?:\/[^/]+){1,2})$/, '$1 ...$2'));
  const out: string[] = [];
  for (let i = 0; i < short.length;) {
    let j = i;
    while (j < short.length && short[j] === short[i]) j++;
    out.push(j - i > 1 ? `${j - i} x ${short[i]}` : short[i]!);
    i = j;
  }
  return out.join(', ');
}

async function writesSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const summarize = (name: string, figures: WriteFigure[], expectedWrites?: number) => {
    const wall = median(figures.map((f) => f.wallMs));
    const own = median(figures.map((f) => f.sandboxMs));
    const beyond = median(figures.map((f) => f.beyondMs));
    const calls = median(figures.map((f) => f.calls));
    const fewest = Math.min(...figures.map((f) => f.calls));
    const most = Math.max(...figures.map((f) => f.calls));
    const writes = figures[0]!.callList.filter((call) => !call.startsWith('GET ')).length;
    report.data[`write:${name}`] = {
      wallMs: wall,
      sandboxMs: own,
      beyondMs: beyond,
      calls,
      writes,
      runs: figures,
    };
    report.row({
      section: 'Writes',
      figure: `${name}: server time beyond the sandbox's`,
      value: `${fmt.ms(beyond)} (wall ${fmt.ms(wall)}, sandbox ${fmt.ms(own)})`,
    });
    report.row({
      section: 'Writes',
      figure: `${name}: Cloudflare calls`,
      value: `${fewest === most ? fewest : `${fewest}-${most}`} (${writes} write${writes === 1 ? '' : 's'}): ${compactCalls(figures[0]!.callList)}`,
      note:
        expectedWrites !== undefined && writes !== expectedWrites
          ? `expected ${expectedWrites} write${expectedWrites === 1 ? '' : 's'}`
          : undefined,
    });
  };

  // Add and delete one item of the 10,000-item list.
  try {
    await pullLists(ctx);
    const key = ctx.listKeys.small!;
    const adds: WriteFigure[] = [];
    const deletes: WriteFigure[] = [];
    for (let i = 0; i <= REPEAT; i++) {
      const ip = `198.51.100.${i + 1}`;
      const add = await timedWrite(ctx, 'add item', () =>
        ctx.lists.request('POST', pathOf(banListItemEndpoints.add, { list_id: key }), {
          ip,
          comment: 'bench',
        }),
      );
      const found = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { search: ip, page: 1 }));
      const item = found.items.find((candidate) => candidate.ip === ip);
      if (!item?.id) throw new Error(`the added item ${ip} is not in the list's items (search)`);
      const itemId = item.id;
      const del = await timedWrite(ctx, 'delete item', () =>
        ctx.lists.request('DELETE', pathOf(banListItemEndpoints.remove, { list_id: key, item_id: itemId })),
      );
      if (i > 0) {
        // The first round warms the SDK client and the connection; it is not counted.
        adds.push(add);
        deletes.push(del);
      }
    }
    summarize('add one item', adds);
    summarize('delete one item', deletes);
  } catch (err) {
    report.missing('Writes', `items: ${reasonOf(err)}`);
  }

  // Add a DNS record.
  try {
    const zone = ctx.seeded.writeZone.id;
    const figures: WriteFigure[] = [];
    for (let i = 0; i <= REPEAT; i++) {
      const figure = await timedWrite(ctx, 'add DNS record', () =>
        ctx.zones.request('POST', pathOf(dnsRecordEndpoints.add, { zone_id: zone }), {
          type: 'A',
          name: `bench-${i}-${Date.now().toString(36)}`,
          content: '203.0.113.7',
          ttl: 1,
          proxied: false,
        }),
      );
      if (i > 0) figures.push(figure);
    }
    summarize('add a DNS record', figures, 1);
  } catch (err) {
    report.missing('Writes', `DNS: ${reasonOf(err)}`);
  }

  // Reorder 100 custom rules: the last rule dragged to the top, the whole list renumbered (spec: PUT).
  try {
    const zone = ctx.seeded.writeZone.id;
    const path = pathOf(firewallRuleEndpoints.list, { zone_id: zone });
    const figures: WriteFigure[] = [];
    for (let i = 0; i <= REPEAT; i++) {
      const current = await ctx.zones.request<unknown>('GET', path);
      const rules = (
        Array.isArray(current) ? current : ((current as { result?: unknown[] }).result ?? [])
      ) as {
        id: string;
        priority: number;
      }[];
      if (rules.length !== 100) throw new Error(`GET ${path} lists ${rules.length} rules, expected 100`);
      const sorted = [...rules].sort((a, b) => a.priority - b.priority);
      const moved = [sorted[sorted.length - 1]!, ...sorted.slice(0, -1)].map((rule, index) => ({
        ...rule,
        priority: index + 1,
      }));
      const figure = await timedWrite(ctx, 'reorder 100 rules', () => ctx.zones.request('PUT', path, moved));
      if (i > 0) figures.push(figure);
    }
    summarize('reorder 100 custom rules', figures, 1);
  } catch (err) {
    report.missing('Writes', `firewall rules: ${reasonOf(err)}`);
  }
}

const SCREEN_CHUNKS = ['accounts', 'banlists', 'banlist-items', 'zones', 'dns', 'zone-rules'];

async function webSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const itemBudgets = [
    {
      name: `${fmt.int(BIG_LIST_ITEMS)}-item list: first page visible`,
      limit: `<= ${BUDGET.firstPageMs} ms`,
    },
    { name: `search "${SEARCH_FEW}" answer after debounce`, limit: `<= ${BUDGET.searchAfterDebounceMs} ms` },
    { name: `search "${SEARCH_MANY}" answer after debounce`, limit: `<= ${BUDGET.searchAfterDebounceMs} ms` },
  ];
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    report.missing('Web', 'no web build in apps/web/dist: run `npm run build` (npm run bench does)', [
      { name: 'login page JS+CSS gzip', limit: `<= ${fmt.kb(BUDGET.loginGzipBytes)}` },
      ...itemBudgets,
    ]);
    return;
  }
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (err) {
    report.missing('Web', reasonOf(err));
    return;
  }
  try {
    // The items screen needs the big list mirrored; the bundle figures do not.
    const notMirrored = await ensureMirrored(ctx).then(
      () => null,
      (err: unknown) => reasonOf(err),
    );
    const zone = ctx.seeded.writeZone.id;
    const bigKey = ctx.listKeys.big ?? ctx.seeded.bigList.listId;
    const routes: { route: string; token: string | null }[] = [
      { route: '/login', token: null },
      { route: '/dashboard', token: ctx.lists.token },
      { route: '/cloudflare/accounts', token: ctx.lists.token },
      { route: '/cloudflare/banlists', token: ctx.lists.token },
      { route: `/cloudflare/banlists/${bigKey}/items`, token: ctx.lists.token },
      { route: '/cloudflare/zones', token: ctx.zones.token },
      { route: `/cloudflare/zones/${zone}/dns`, token: ctx.zones.token },
      { route: `/cloudflare/zones/${zone}/rules`, token: ctx.zones.token },
    ];
    const loaded: RouteBytes[] = [];
    for (const { route, token } of routes)
      loaded.push(await routeBytes(browser, ctx.server.origin, route, token));
    report.data.webBytes = loaded;
    const shell = new Set(loaded.find((r) => r.route === '/dashboard')?.files.map((f) => f.file) ?? []);
    for (const r of loaded) {
      const total = r.jsGzip + r.cssGzip;
      const own = r.files.filter((f) => !shell.has(f.file)).reduce((sum, f) => sum + f.gzip, 0);
      const label = r.route.replace(zone, '{zone}').replace(bigKey, '{list}');
      const landed = r.landedOn === r.route ? '' : ` (landed on ${r.landedOn})`;
      if (r.route === '/login') {
        report.budget(
          'Web',
          'login page JS+CSS gzip',
          total,
          `${fmt.kb(total)} (JS ${fmt.kb(r.jsGzip)}, CSS ${fmt.kb(r.cssGzip)})${landed}`,
          `<= ${fmt.kb(BUDGET.loginGzipBytes)}`,
          (v) => v <= BUDGET.loginGzipBytes,
        );
      } else {
        report.row({
          section: 'Web',
          figure: `${label} JS+CSS gzip`,
          value: `${fmt.kb(total)}${r.route === '/dashboard' ? ' (the shell)' : `, ${fmt.kb(own)} beyond the shell`}${landed}`,
        });
      }
    }
    // Lazy loading: the login page loads neither the shell nor any screen; each screen loads its own
    // lazy chunk and no other screen's; the dnd vendor chunk (@hello-pangea/dnd) loads on the rules
    // screen only. Screens are known by the lazy chunks of the build (lib/web.ts lazyChunks).
    const lazy = lazyChunks(WEB_DIST);
    const fileOf = (name: string) => lazy.get(name);
    const loads = (r: RouteBytes, file: string | undefined) => !!file && r.files.some((f) => f.file === file);
    const isDnd = (file: string) => /\/dnd-[A-Za-z0-9_-]{8}\.js$/.test(file);
    const login = loaded.find((r) => r.route === '/login')!;
    const loginLoads = ['app-shell', ...SCREEN_CHUNKS].filter((name) => loads(login, fileOf(name)));
    const dndOn = loaded
      .filter((r) => r.files.some((f) => isDnd(f.file)))
      .map((r) => r.route.replace(zone, '{zone}'));
    const screenRoutes: [string, string][] = [
      ['accounts', '/cloudflare/accounts'],
      ['banlists', '/cloudflare/banlists'],
      ['banlist-items', `/cloudflare/banlists/${bigKey}/items`],
      ['zones', '/cloudflare/zones'],
      ['dns', `/cloudflare/zones/${zone}/dns`],
      ['zone-rules', `/cloudflare/zones/${zone}/rules`],
    ];
    const screenProblems = screenRoutes.flatMap(([name, route]) => {
      const r = loaded.find((candidate) => candidate.route === route)!;
      if (!fileOf(name)) return [`no lazy chunk for the ${name} screen`];
      if (!loads(r, fileOf(name))) return [`${name} screen does not load its chunk`];
      const others = SCREEN_CHUNKS.filter((other) => other !== name && loads(r, fileOf(other)));
      return others.length ? [`${name} screen also loads ${others.join(', ')}`] : [];
    });
    const lazyProblems = [
      ...(loginLoads.length ? [`login loads ${loginLoads.join(', ')}`] : []),
      ...screenProblems,
      ...(dndOn.length === 1 && dndOn[0]!.endsWith('/rules')
        ? []
        : [`dnd chunk loads on: ${dndOn.join(', ') || 'no route'}`]),
    ];
    report.budget(
      'Web',
      'screens lazy-load their own code; dnd only on rules',
      lazyProblems.length,
      lazyProblems.length === 0 ? `yes (dnd on ${dndOn.join(', ')})` : lazyProblems.join('; '),
      'yes',
      (v) => v === 0,
    );

    // The items screen of the big list: first page, then a search that matches few and one that matches many.
    try {
      if (notMirrored) throw new Error(notMirrored);
      const key = ctx.listKeys.big!;
      const first = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { page: 1 }));
      if (first.totalItems !== BIG_LIST_ITEMS)
        throw new Error(`the mirror holds ${first.totalItems} items, not ${BIG_LIST_ITEMS}`);
      const firstIp = first.items[0]?.ip;
      if (!firstIp) throw new Error('the first page has no items with an ip');
      const searches = [];
      for (const query of [SEARCH_FEW, SEARCH_MANY]) {
        const answer = await ctx.lists.request<ItemsPage>('GET', itemsPath(key, { search: query, page: 1 }));
        const ip = answer.items[0]?.ip;
        if (!ip) throw new Error(`the search "${query}" answers no items`);
        if (ip === firstIp)
          throw new Error(
            `the search "${query}" starts with the unfiltered first row: cannot tell its answer`,
          );
        searches.push({ name: query, query, firstIp: ip });
      }
      const timings: Awaited<ReturnType<typeof timeItemsScreen>>[] = [];
      // Three cold loads (a fresh browser context each, the server's answer caches off: the person's
      // first visit and first search since the list changed); the median is reported.
      const cachesOff = (await ctx.server.caches(false)).length > 0;
      try {
        for (let i = 0; i < 3; i++) {
          timings.push(
            await timeItemsScreen(
              browser,
              ctx.server.origin,
              ctx.lists.token,
              key,
              firstIp,
              searches,
              SEARCH_DEBOUNCE_MS,
            ),
          );
        }
      } finally {
        if (cachesOff) await ctx.server.caches(true);
      }
      report.data.itemsScreen = timings;
      const firstPage = median(timings.map((t) => t.firstPageMs));
      // The load whose first page time is the median, to show where that time went.
      const typical = [...timings].sort((a, b) => a.firstPageMs - b.firstPageMs)[1] ?? timings[0]!;
      const apiCalls = typical.timeline.api
        .map(
          (call) =>
            `${call.path.replace(key, '{list}').replace('/api/cloudflare', '')} ${fmt.ms(call.startMs)}-${fmt.ms(call.endMs)}`,
        )
        .join(', ');
      report.budget(
        'Web',
        itemBudgets[0]!.name,
        firstPage,
        `${fmt.ms(firstPage)} (document ${fmt.ms(typical.timeline.documentMs)}, JS+CSS by ${fmt.ms(typical.timeline.assetsMs)}, API ${apiCalls})`,
        itemBudgets[0]!.limit,
        (v) => v <= BUDGET.firstPageMs,
      );
      searches.forEach((search, index) => {
        const after = median(timings.map((t) => t.searches[index]!.afterDebounceMs));
        report.budget(
          'Web',
          itemBudgets[index + 1]!.name,
          after,
          fmt.ms(after),
          itemBudgets[index + 1]!.limit,
          (v) => v <= BUDGET.searchAfterDebounceMs,
        );
      });
    } catch (err) {
      report.missing('Web', `items screen: ${reasonOf(err)}`, itemBudgets);
    }
  } catch (err) {
    report.missing('Web', reasonOf(err));
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

function gitDescribe(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'apps', 'packages'], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  const loadBefore = loadavg();
  const report = new Report();
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse())
      await Promise.resolve(step()).catch((err: unknown) => console.error('cleanup:', err));
    cleanups.length = 0;
  };
  const onSignal = () => {
    console.error('\nInterrupted: cleaning up.');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  console.log(
    `Guardian benchmark: ${fmt.int(BIG_LIST_ITEMS)} items, ${fmt.int(ZONE_COUNT)} zones, ${CONNECTIONS} connections x ${DURATION_S} s; ` +
      `load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} on ${cpus().length} cores.`,
  );
  let database = 'unknown';
  try {
    const timed = await startSandbox();
    cleanups.push(() => timed.sandbox.close());
    const seeded = await seedSandbox(timed);
    const bundles = await buildChildren();
    const server = await startServer({
      bundle: bundles.server,
      sandboxUrl: timed.baseUrl,
      databaseUrl: process.env.DATABASE_URL,
      webDist: WEB_DIST,
    });
    cleanups.push(() => server.stop());
    database = server.database;
    console.log(
      `Guardian is up on ${server.origin} (${server.database}${server.schema ? `, schema ${server.schema}` : ''}).`,
    );

    const listsUser = await server.createUser();
    const zonesUser = await server.createUser();
    const ctx: Context = {
      report,
      bundles,
      timed,
      server,
      seeded,
      lists: api(server.origin, listsUser.token),
      zones: api(server.origin, zonesUser.token),
      listKeys: {},
    };
    // Accounts through the API, as a person adds them (the token is verified at the sandbox).
    for (const account of seeded.listAccounts) {
      await ctx.lists.request('POST', accountEndpoints.add.path, {
        account_name: account.name,
        token: account.token,
      });
    }
    for (const account of seeded.zoneAccounts) {
      await ctx.zones.request('POST', accountEndpoints.add.path, {
        account_name: account.name,
        token: account.token,
      });
    }
    // The zones person's mirror (also the write zone's ownership check).
    try {
      timed.sandbox.control.resetCalls();
      // Zones are listed per account, at most 50 a page.
      const minimumZoneCalls = seeded.zoneAccounts.reduce(
        (sum, account) =>
          sum + Math.max(1, Math.ceil(timed.sandbox.control.getZones(account.accountId).length / 50)),
        0,
      );
      const syncStarted = performance.now();
      await ctx.zones.request('POST', zoneEndpoints.sync.path);
      const zonesSync = { ms: performance.now() - syncStarted };
      report.row({
        section: 'Zones',
        figure: `sync ${fmt.int(ZONE_COUNT)} zones (POST /zones/sync)`,
        value: `${fmt.ms(zonesSync.ms)}, ${timed.sandbox.control.callCount({ path: /^\/zones$/ })} Cloudflare calls (minimum ${minimumZoneCalls})`,
      });
    } catch (err) {
      report.missing('Zones', `zones sync: ${reasonOf(err)}`);
    }

    const sections: [Section, (ctx: Context) => Promise<void>][] = [
      ['sync', syncSection],
      ['reads', readsSection],
      ['zones', zonesSection],
      ['writes', writesSection],
      ['web', webSection],
      [
        'fairness',
        (c) =>
          fairnessSection({
            ...c,
            serverBundle: c.bundles.server,
            webDist: WEB_DIST,
            bigListKey: () => ensureMirrored(c).then(() => c.listKeys.big!),
            bigAccount: c.seeded.listAccounts[0]!,
            bigListName: c.seeded.bigList.name,
            itemCount: BIG_LIST_ITEMS,
            pageSize: PAGE_SIZE,
            durationS: DURATION_S * 2,
          }),
      ],
      ['audit', (c) => auditSection({ ...c, rows: AUDIT_ROWS, durationS: DURATION_S })],
      [
        'ipsearch',
        (c) =>
          ipSearchSection({
            ...c,
            items: IPSEARCH_ITEMS,
            exportItems: EXPORT_ITEMS,
            connections: CONNECTIONS,
            durationS: DURATION_S,
          }),
      ],
    ];
    for (const [name, run] of sections) {
      if (!runs(name)) continue;
      const sectionStart = performance.now();
      console.log(`\n== ${name} ==`);
      try {
        await run(ctx);
      } catch (err) {
        report.missing(name, `failed: ${reasonOf(err)}`);
        console.error(err);
      }
      console.log(`   (${fmt.ms(performance.now() - sectionStart)})`);
    }
  } catch (err) {
    report.missing('Setup', reasonOf(err));
    console.error(err);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const soak = readSoak(RESULTS_DIR);
  report.row({
    section: 'Soak',
    figure: 'p99 under sustained load (npm run test:load)',
    value: soak ? `${fmt.ms(soak.p99)}${soak.date ? ` (${soak.date})` : ''}` : '-',
    note: soak ? undefined : 'no bench/results/soak.json yet',
  });
  report.data.soak = soak;

  const loadAfter = loadavg();
  const totalS = (performance.now() - started) / 1000;
  console.log(`\n${report.print()}`);
  console.log(
    `\nRun took ${totalS.toFixed(0)} s on ${database}; load average before ${loadBefore.map((v) => v.toFixed(2)).join(' ')}, after ${loadAfter.map((v) => v.toFixed(2)).join(' ')}.`,
  );
  if (!args['no-write']) {
    const { file, latest } = report.write(
      RESULTS_DIR,
      {
        date: startedAt.toISOString(),
        database,
        git: gitDescribe(),
        machine: {
          cpus: cpus().length,
          cpuModel: cpus()[0]?.model,
          node: process.version,
          loadBefore,
          loadAfter,
        },
        serverNodeArgs: process.env.BENCH_SERVER_NODE_ARGS ?? null,
        options: {
          itemCount: BIG_LIST_ITEMS,
          smallListItems: SMALL_LIST_ITEMS,
          zoneCount: ZONE_COUNT,
          connections: CONNECTIONS,
          durationS: DURATION_S,
          repeat: REPEAT,
          auditRows: AUDIT_ROWS,
          ipSearchItems: IPSEARCH_ITEMS,
          exportItems: EXPORT_ITEMS,
          sections: SECTIONS.filter(runs),
        },
        durationS: totalS,
      },
      process.env.BENCH_SERVER_NODE_ARGS || process.env.BENCH_LIVE_HEAP ? 'what-if' : undefined,
    );
    const shown = (path: string) => path.replace(ROOT + '/', '');
    console.log(
      `Wrote ${shown(file)}${latest ? ` and ${shown(latest)}` : ' (a what-if run: latest.json unchanged)'}.`,
    );
  }
  return report.budgets.some((b) => b.verdict === 'fail') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
