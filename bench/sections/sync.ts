/**
 * Sync: the lists pulled, then the 10,000- and 500,000-item lists synced from Cloudflare into the
 * mirror (empty, unchanged, a comment changed, the first item replaced): items/s, Cloudflare calls
 * against the fewest possible, the server's peak RSS.
 */
import { performance } from 'node:perf_hooks';
import { banListItemEndpoints, pathOf } from '@guardian/contract';
import { fmt } from '../lib/report';
import type { ServerChild, TimedSandbox } from '../lib/stack';
import { bigListItem, type Seeded } from '../dataset';
import { BIG_LIST_ITEMS, BUDGET, CLOUDFLARE_ITEMS_PAGE, SMALL_LIST_ITEMS } from '../options';
import { itemsPath, pullLists, reasonOf, type Context, type ItemsPage } from './context';

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

export async function syncSection(ctx: Context): Promise<void> {
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
