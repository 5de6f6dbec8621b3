/**
 * "Where is this address?" and the list export (issue 15). The mirror is seeded by SQL, as a sync
 * would leave it (a partition per list, loaded then indexed in bulk and attached): `items` items in
 * 200 lists of 5 accounts of one person (180 ip lists, 20 hostname lists), plus one list of
 * `exportItems` items. Then, at 50 connections, the search for an address (held exactly by 9 lists and
 * in a /16 CIDR by one), for a /16 CIDR (one list's 5,000 addresses inside it: the answer stops at its
 * 500-match bound) and for a hostname; and the export of the big list as CSV: items/s and the
 * server's RSS growth while it streams.
 */
import { banListItemEndpoints, ipSearchEndpoints, pathOf, type IpSearchAnswer } from '@guardian/contract';
import { ApiError } from '../lib/api';
import { load, loadRead, warm } from '../lib/load';
import { fmt } from '../lib/report';
import type { ServerChild } from '../lib/stack';
import type { SeededSectionContext } from './context';

export const IP_SEARCH_BUDGET_P99_MS = 50;
export const EXPORT_BUDGET_ITEMS_PER_S = 200_000;
export const EXPORT_BUDGET_RSS_GROWTH_BYTES = 50 * 1024 * 1024;

const ACCOUNTS = 5;
const LISTS = 200;
/** Of the 200 lists, these are hostname lists; the others ip lists. */
const HOSTNAME_LISTS = 20;
/** The address searched: every 20th ip list holds it, and one list a /16 CIDR around it. */
const ADDRESS = '198.51.100.7';
const ADDRESS_CIDR = '198.51.0.0/16';
/** The /16 searched: the first ip list's addresses are all inside it. */
const CIDR = '10.20.0.0/16';
const HOSTNAME_OF = (item: number, list: number) => `host${item}-${list}.example.com`;

export interface IpSearchContext extends SeededSectionContext {
  /** Items over the 200 lists (1,000,000 by default). */
  items: number;
  /** Items of the exported list (500,000 by default). */
  exportItems: number;
  connections: number;
}

/** An IPv4 address in SQL from a 32-bit number. */
const dotted = (n: string) =>
  `((${n}) >> 24) || '.' || (((${n}) >> 16) & 255) || '.' || (((${n}) >> 8) & 255) || '.' || ((${n}) & 255)`;

/**
 * One list's items into a table of its own, then attached as the list's partition: ATTACH builds the
 * mirror's indexes on it in bulk, as a sync's swap does (its CHECK constraints copied: ATTACH requires
 * them). `valueSql` makes item g's value (g from 0).
 */
async function seedList(
  server: ServerChild,
  ref: number,
  count: number,
  valueSql: string,
  inet: boolean,
  extra: string[] = [],
): Promise<void> {
  const table = `ban_list_items_${ref}`;
  await server.sql(`CREATE TABLE ${table} (LIKE ban_list_items INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  await server.sql(
    `INSERT INTO ${table} (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
     SELECT $1::bigint, g + 1, md5($3 || ':' || g), value,
            (ARRAY['ssh brute force', 'scanner', 'credential stuffing', 'spam relay'])[1 + g % 4],
            now() - g * interval '1 minute', ${inet ? 'value::inet' : 'NULL'}
     FROM generate_series(0, $2::int - 1) AS g, LATERAL (SELECT ${valueSql} AS value) AS v`,
    [ref, count, String(ref)],
  );
  for (const [index, value] of extra.entries()) {
    await server.sql(
      `INSERT INTO ${table} (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
       VALUES ($1, $2, md5($4), $3::text, 'seeded match', now(), ${inet ? '$3::text::inet' : 'NULL'})`,
      [ref, count + index + 1, value, `${ref}:extra:${index}`],
    );
  }
  await server.sql(`ALTER TABLE ban_list_items ATTACH PARTITION ${table} FOR VALUES IN (${ref})`);
  await server.sql(`ANALYZE ${table}`);
  await server.sql('UPDATE ban_lists SET items_count = $2, next_item_id = $2 + 1 WHERE id = $1', [
    ref,
    count + extra.length,
  ]);
}

async function seed(
  server: ServerChild,
  userId: number,
  items: number,
  exportItems: number,
): Promise<{ exportListId: string }> {
  const accountRefs: number[] = [];
  for (let a = 0; a < ACCOUNTS; a++) {
    const [row] = await server.sql<{ id: number }>(
      `INSERT INTO cloudflare_accounts (user_id, account_name, account_id, token_encrypted, token_last4)
       VALUES ($1, $2, md5($2), 'not-a-token', 'xxxx') RETURNING id`,
      [userId, `ipsearch-account-${a}`],
    );
    accountRefs.push(row!.id);
  }
  const perList = Math.max(1, Math.floor(items / LISTS));
  for (let l = 0; l < LISTS; l++) {
    const hostname = l >= LISTS - HOSTNAME_LISTS;
    const [row] = await server.sql<{ id: number }>(
      `INSERT INTO ban_lists (account_ref, list_id, list_name, kind) VALUES ($1, md5('ipsearch' || $2::text), $3, $4)
       RETURNING id`,
      [accountRefs[l % ACCOUNTS], l, `ipsearch_list_${l}`, hostname ? 'hostname' : 'ip'],
    );
    const ref = row!.id;
    if (hostname) {
      await seedList(server, ref, perList, `'host' || g || '-${l}.example.com'`, false);
    } else if (l === 0) {
      // Dense in the /16 searched (at most 65,536 addresses fit in it).
      await seedList(
        server,
        ref,
        Math.min(perList, 65_536),
        `'10.20.' || (g >> 8) || '.' || (g & 255)`,
        true,
      );
    } else {
      // Spread over the address space (an odd multiplier modulo 2^32 never repeats), every 50th a /24.
      const n = `((g::bigint * 2654435761 + ${l * 40_503}) % 4294967296)`;
      const value = `CASE WHEN g % 50 = 0 THEN ${dotted(`(${n} >> 8) << 8`)} || '/24' ELSE ${dotted(n)} END`;
      const extra = [...(l % 20 === 1 ? [ADDRESS] : []), ...(l === 2 ? [ADDRESS_CIDR] : [])];
      await seedList(server, ref, perList, value, true, extra);
    }
    if (l % 20 === 19) process.stdout.write(`  IP search: ${l + 1} of ${LISTS} lists seeded\n`);
  }
  const [exportList] = await server.sql<{ id: number; list_id: string }>(
    `INSERT INTO ban_lists (account_ref, list_id, list_name, kind) VALUES ($1, md5('ipsearch-export'), 'export_list', 'ip')
     RETURNING id, list_id`,
    [accountRefs[0]],
  );
  // Comments with a comma, a quote and a formula start: the CSV quotes and guards them.
  await seedList(
    server,
    exportList!.id,
    exportItems,
    `'10.' || ((g >> 16) & 255) || '.' || ((g >> 8) & 255) || '.' || (g & 255)`,
    true,
  );
  await server.sql(
    `UPDATE ban_list_items SET comment = CASE id % 3 WHEN 0 THEN 'blocked, "scanner"' WHEN 1 THEN '=cmd|calc' ELSE comment END
     WHERE ban_list_ref = $1 AND id % 100 < 3`,
    [exportList!.id],
  );
  return { exportListId: exportList!.list_id };
}

/** Streams the export, sampling the server's RSS every 25 ms: items/s and the RSS growth. */
async function timeExport(server: ServerChild, token: string, listId: string) {
  const url = server.origin + pathOf(banListItemEndpoints.export, { list_id: listId });
  const before = server.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 25);
  const started = performance.now();
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200 || !response.body)
      throw new ApiError(response.status, 'GET', url, await response.text());
    let lines = 0;
    let bytes = 0;
    let head = '';
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const byte of value) if (byte === 10) lines++;
      if (head === '') head = new TextDecoder().decode(value.subarray(0, 300));
    }
    const ms = performance.now() - started;
    return { items: lines - 1, bytes, ms, before, peak, head: head.split('\r\n').slice(0, 4) };
  } finally {
    clearInterval(sampler);
  }
}

export async function ipSearchSection(ctx: IpSearchContext): Promise<void> {
  const { report, server } = ctx;
  const searches = [
    { name: `an address (${ADDRESS})`, q: ADDRESS },
    { name: `a /16 CIDR (${CIDR})`, q: CIDR },
    { name: `a hostname (${HOSTNAME_OF(42, LISTS - 1)})`, q: HOSTNAME_OF(42, LISTS - 1) },
  ];
  const budgetName = (search: { name: string }) => `where is ${search.name}: p99`;
  const exportBudgets = [
    { name: 'export of the big list: items/s', limit: `> ${fmt.int(EXPORT_BUDGET_ITEMS_PER_S)}` },
    { name: 'export of the big list: server RSS growth', limit: '< 50 MB' },
  ];
  const person = await server.createUser();
  let exportListId: string;
  try {
    const started = performance.now();
    ({ exportListId } = await seed(server, person.id, ctx.items, ctx.exportItems));
    const [counted] = await server.sql<{ count: number }>(
      'SELECT count(*)::int AS count FROM ban_list_items',
    );
    report.row({
      section: 'IP search',
      figure: 'mirrored items (200 lists of 5 accounts, and the export list)',
      value: `${fmt.int(counted?.count ?? 0)} (seeded in ${fmt.ms(performance.now() - started)})`,
    });
  } catch (err) {
    report.missing('IP search', `seeding the mirror: ${String(err)}`, [
      ...searches.map((s) => ({ name: budgetName(s), limit: `< ${IP_SEARCH_BUDGET_P99_MS} ms` })),
      ...exportBudgets,
    ]);
    return;
  }

  const figures: Record<string, unknown> = {};
  for (const search of searches) {
    process.stdout.write(`  IP search: ${search.name}...`);
    const path = `${ipSearchEndpoints.search.path}?${new URLSearchParams({ q: search.q })}`;
    const first = await fetch(server.origin + path, { headers: { authorization: `Bearer ${person.token}` } });
    const text = await first.text();
    if (first.status !== 200) throw new ApiError(first.status, 'GET', path, text);
    const answer = JSON.parse(text) as IpSearchAnswer;
    const found = answer.lists.reduce((sum, list) => sum + list.matches.length, 0);
    // What each request sends: the answer is kept as JSON, so its size is most of its cost.
    const bytes = Buffer.byteLength(text);
    const options = {
      url: server.origin + path,
      headers: { authorization: `Bearer ${person.token}` },
      connections: ctx.connections,
      durationS: ctx.durationS,
    };
    const { result, plans } = await loadRead(server, {
      path,
      token: person.token,
      connections: ctx.connections,
      durationS: ctx.durationS,
      limit: IP_SEARCH_BUDGET_P99_MS,
      table: 'ban_list_items',
    });
    // The same searches with the server's answer caches off: each one reads the lists' items (shown,
    // not judged, as the reads section shows its uncached pages).
    let uncached: Awaited<ReturnType<typeof load>> | undefined;
    if ((await server.caches(false)).length > 0) {
      try {
        await warm(options);
        uncached = await load(options);
      } finally {
        await server.caches(true);
      }
    }
    process.stdout.write(
      ` p99 ${fmt.ms(result.p99)}, ${fmt.rps(result.requestsPerSecond)}` +
        (uncached ? `; no cache p99 ${fmt.ms(uncached.p99)}, ${fmt.rps(uncached.requestsPerSecond)}` : '') +
        '\n',
    );
    const matches =
      `${found}${answer.truncated ? '+' : ''} matches in ${answer.lists.length} of ${answer.lists_searched} lists, ` +
      `${fmt.int(bytes)} bytes`;
    figures[search.name] = { path, matches, bytes, load: result, uncached, plans };
    report.p99Budget(
      'IP search',
      budgetName(search),
      result,
      IP_SEARCH_BUDGET_P99_MS,
      `${fmt.ms(result.p99)} (p50 ${fmt.ms(result.p50)}, ${fmt.rps(result.requestsPerSecond)}; ${matches})`,
    );
    if (uncached) {
      report.row({
        section: 'IP search',
        figure: `where is ${search.name} (no cache): p99`,
        value: `${fmt.ms(uncached.p99)} (p50 ${fmt.ms(uncached.p50)}, ${fmt.rps(uncached.requestsPerSecond)})`,
      });
    }
  }

  try {
    process.stdout.write(`  Export: ${fmt.int(ctx.exportItems)} items as CSV...`);
    const exported = await timeExport(server, person.token, exportListId);
    const rate = (exported.items / exported.ms) * 1000;
    const growth = exported.peak - exported.before;
    process.stdout.write(` ${fmt.ms(exported.ms)}, ${fmt.int(rate)} items/s\n`);
    figures.export = exported;
    const complete = exported.items === ctx.exportItems;
    report.budget(
      'IP search',
      exportBudgets[0]!.name,
      complete ? rate : 0,
      `${fmt.int(rate)} (${fmt.int(exported.items)} items, ${(exported.bytes / 1024 / 1024).toFixed(1)} MB in ${fmt.ms(exported.ms)})`,
      exportBudgets[0]!.limit,
      (v) => v > EXPORT_BUDGET_ITEMS_PER_S,
      complete ? undefined : `${exported.items} items of ${ctx.exportItems}`,
    );
    report.budget(
      'IP search',
      exportBudgets[1]!.name,
      growth,
      `${(growth / 1024 / 1024).toFixed(1)} MB (${(exported.before / 1024 / 1024).toFixed(0)} -> ${(exported.peak / 1024 / 1024).toFixed(0)} MB)`,
      exportBudgets[1]!.limit,
      (v) => v < EXPORT_BUDGET_RSS_GROWTH_BYTES,
    );
  } catch (err) {
    report.missing('IP search', `export: ${String(err)}`, exportBudgets);
  }
  report.data.ipSearch = {
    items: ctx.items,
    exportItems: ctx.exportItems,
    connections: ctx.connections,
    figures,
  };
}
