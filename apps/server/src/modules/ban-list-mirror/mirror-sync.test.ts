import type { BanList, BanListImportPreview, BanListImportResult } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createAppDeps } from '../../app';
import type { Db, Queryable, QueryOptions } from '../../db';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';

/** A node of `EXPLAIN (FORMAT JSON)`. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * The nested loops of a plan that read a whole table (a sequential scan, or a materialized one) once
 * per row of their outer side: the cost of such a join grows with the product of both sides.
 */
function loopsOverWholeTables(node: PlanNode): string[] {
  const own: string[] = [];
  const inner = node.Plans?.[1];
  if (node['Node Type'] === 'Nested Loop' && inner) {
    const scanned = inner['Node Type'] === 'Materialize' ? inner.Plans?.[0] : inner;
    if (scanned?.['Node Type'] === 'Seq Scan') own.push(`a loop over ${scanned['Relation Name']}`);
  }
  return [...own, ...(node.Plans ?? []).flatMap(loopsOverWholeTables)];
}

/**
 * The tables a plan's hash joins build their hash tables from (the inner side, held in memory; the
 * outer side is only read through, and not at all when the hash is empty).
 */
function hashedTables(node: PlanNode): string[] {
  const scanned = (inner: PlanNode): string[] =>
    inner['Relation Name'] ? [inner['Relation Name']] : (inner.Plans ?? []).flatMap(scanned);
  const own = node['Node Type'] === 'Hash' ? scanned(node) : [];
  return [...own, ...(node.Plans ?? []).flatMap(hashedTables)];
}

/**
 * `db`, where each UPDATE of a sync's load table is first explained (its plan for the given values,
 * on the same connection and in the same transaction as it runs).
 */
function explainingLoadUpdates(db: Db): { db: Db; plans: { sql: string; plan: PlanNode }[] } {
  const plans: { sql: string; plan: PlanNode }[] = [];
  const explaining = <Q extends Queryable>(queryable: Q): Q => {
    const wrapped = Object.create(queryable) as Q;
    wrapped.query = async <T>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      if (/^UPDATE ban_list_items_\d+_next\b/.test(sql)) {
        const [row] = await queryable.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) ${sql}`,
          params,
        );
        plans.push({ sql, plan: row!['QUERY PLAN'][0].Plan });
      }
      return queryable.query<T>(sql, params, options);
    };
    return wrapped;
  };
  const explained = explaining(db);
  explained.transaction = (fn) => db.transaction((tx) => fn(explaining(tx)));
  return { db: explained, plans };
}

const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('the sync of a list that received a large import', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({
      // Calls wait for their jobs; on PostgreSQL no statement may take more than a few seconds.
      config: { jobs: { waitMs: 600_000 }, databaseQueryTimeoutMs: 20_000 },
    });
    alice = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  const call = (url: string, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers: alice.headers, payload });

  it('carries who added 50,000 imported items among 100,000 over in one pass, never a loop over the list', async () => {
    const account = await ctx.addAccount(alice, { plan: 'enterprise' });
    await ctx.db.query("UPDATE cloudflare_accounts SET list_plan = 'enterprise' WHERE account_id = $1", [
      account.account_id,
    ]);
    const list = ctx.sandbox.control.addList(account.account_id, { name: 'imported_into', kind: 'ip' });
    // Every other address is at Cloudflare already; the import adds those between them.
    const seeded = Array.from({ length: 50_000 }, (_, i) => ({ ip: address(2 * i) }));
    ctx.sandbox.control.seedListItems(account.account_id, list.id, seeded);
    expect((await call('/api/cloudflare/banlists/update')).statusCode).toBe(200);
    const first = await call(`/api/cloudflare/banlists/${list.id}/sync`);
    expect(first.statusCode, first.body).toBe(200);
    const ref = first.json<BanList>().id;

    const text = Array.from({ length: 50_000 }, (_, i) => `${address(2 * i + 1)},imported`).join('\n');
    const preview = await call(`/api/cloudflare/banlists/${list.id}/items/import/preview`, { text });
    expect(preview.statusCode, preview.body).toBe(200);
    const shown = preview.json<BanListImportPreview>();
    const applied = await call(`/api/cloudflare/banlists/${list.id}/items/import/${shown.id}`, {});
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<BanListImportResult>().added).toBe(50_000);

    const explained = explainingLoadUpdates(ctx.db);
    const app = await buildApp(ctx.config, createAppDeps(ctx.config, explained.db));
    try {
      await app.ready();
      const synced = await app.inject({
        method: 'POST',
        url: `/api/cloudflare/banlists/${list.id}/sync`,
        headers: alice.headers,
      });
      expect(synced.statusCode, synced.body).toBe(200);
      expect(synced.json<BanList>().items).toBe(100_000);
    } finally {
      await app.close();
    }
    // Both carry-overs ran: by Cloudflare's id, and by value for the imported items' provisional ids.
    expect(explained.plans).toHaveLength(2);
    for (const { sql, plan } of explained.plans) {
      expect(loopsOverWholeTables(plan), sql).toEqual([]);
      // The mirror's items Guardian added are hashed, not the whole load table (unanalyzed, it was
      // taken for a few hundred rows, and hashing its 100,000 spilled to disk: seconds on PGlite): the
      // list's partition's parts, its earlier items and the import's attached to it.
      expect(hashedTables(plan).sort(), sql).toEqual([
        `ban_list_items_${ref}_50001`,
        `ban_list_items_${ref}_base`,
      ]);
    }

    const [mirror] = await ctx.db.query<{ imported: number; pending: number; all: number }>(
      `SELECT count(*) FILTER (WHERE added_via = 'import' AND added_by = $2 AND comment = 'imported')::int AS imported,
                count(*) FILTER (WHERE item_id LIKE 'pending:%')::int AS pending, count(*)::int AS all
         FROM ban_list_items WHERE ban_list_ref = $1`,
      [ref, alice.email],
    );
    expect(mirror).toEqual({ imported: 50_000, pending: 0, all: 100_000 });
  }, 300_000);
});
