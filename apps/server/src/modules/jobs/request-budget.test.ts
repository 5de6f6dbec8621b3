import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db';
import { createTestContext, type TestContext } from '../../test/context';
import { countingDb } from '../../test/counting-db';
import { DatabaseRequestBudget } from './request-budget';

let ctx: TestContext;
let other: Db;
beforeAll(async () => {
  ctx = await createTestContext();
  // A second app instance on the same database: its own pool on PostgreSQL (same schema).
  if (ctx.db.kind === 'postgres') {
    const [row] = await ctx.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    other = await createDb(ctx.config, { schema: row!.schema });
  } else other = ctx.db;
});
afterAll(async () => {
  if (other !== ctx.db) await other.close();
  await ctx.close();
});

describe('the per-token request budget in the database', () => {
  it('is shared by two instances: together they send no more than the budget', async () => {
    const one = new DatabaseRequestBudget(ctx.db, 'token-a', 10, 60_000);
    const two = new DatabaseRequestBudget(other, 'token-a', 10, 60_000);
    const waits = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).acquire(0)));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
    // The others are told how long until the oldest requests leave the window (about a minute).
    for (const wait of waits.filter((wait) => wait > 0)) {
      expect(wait).toBeGreaterThan(50_000);
      expect(wait).toBeLessThanOrEqual(61_000);
    }
    // Another token has its own budget.
    expect(await new DatabaseRequestBudget(other, 'token-b', 10, 60_000).acquire(0)).toBe(0);
  });

  it("holds every instance off after Cloudflare's 429", async () => {
    const one = new DatabaseRequestBudget(ctx.db, 'token-c', 100, 60_000);
    const two = new DatabaseRequestBudget(other, 'token-c', 100, 60_000);
    expect(await one.acquire(0)).toBe(0);
    one.blockFor(30_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const wait = await two.acquire(0);
    expect(wait).toBeGreaterThan(25_000);
    expect(wait).toBeLessThanOrEqual(30_000);
  });

  it("takes a busy token's requests in batches: few database round trips, nothing counted twice", async () => {
    const { db: counting, statements } = countingDb(ctx.db);
    const asks = () => statements.filter((sql) => sql.includes('cloudflare_budget_take')).length;
    const budget = new DatabaseRequestBudget(counting, 'token-e', 1_200, 300_000);
    for (let sent = 0; sent < 200; sent++) expect(await budget.acquire(0)).toBe(0);
    // 1 + 4 + 16 + 16 + ...: 15 asks for 200 calls instead of 200 (doubling took 16).
    expect(asks()).toBeLessThanOrEqual(15);
    const counted = async () => {
      const [row] = await ctx.db.query<{ requests: number }>(
        "SELECT coalesce(sum(requests), 0)::int AS requests FROM cloudflare_budget_seconds WHERE token_key = 'token-e'",
      );
      return row!.requests;
    };
    // Counted: what was sent, and at most what is left of the last batch.
    expect(await counted()).toBeGreaterThanOrEqual(200);
    expect(await counted()).toBeLessThan(200 + 16);
    // After a pause the token is taken one request at a time again.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = await counted();
    expect(await budget.acquire(0)).toBe(0);
    expect((await counted()) - before).toBe(1);
  });

  it("a person's add (4 Cloudflare calls in a row) asks the database twice, and leaves at most one counted unsent", async () => {
    const { db: counting, statements } = countingDb(ctx.db);
    const asks = () => statements.filter((sql) => sql.includes('cloudflare_budget_take')).length;
    const budget = new DatabaseRequestBudget(counting, 'token-g', 1_200, 300_000);
    // Search, write, the write's operation, search again.
    for (let call = 0; call < 4; call++) expect(await budget.acquire(0)).toBe(0);
    expect(asks()).toBe(2);
    const [row] = await ctx.db.query<{ requests: number }>(
      "SELECT coalesce(sum(requests), 0)::int AS requests FROM cloudflare_budget_seconds WHERE token_key = 'token-g'",
    );
    expect(row!.requests).toBe(5);
  });

  it('never grants past the budget in a batch', async () => {
    const budget = new DatabaseRequestBudget(ctx.db, 'token-f', 5, 60_000);
    const waits: number[] = [];
    for (let call = 0; call < 8; call++) waits.push(await budget.acquire(0));
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    for (const wait of waits.slice(5)) expect(wait).toBeGreaterThan(50_000);
  });

  it('frees a slot as the window moves on', async () => {
    const budget = new DatabaseRequestBudget(ctx.db, 'token-d', 2, 1_000);
    expect(await budget.acquire(0)).toBe(0);
    expect(await budget.acquire(0)).toBe(0);
    const started = Date.now();
    expect(await budget.acquire(5_000)).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(0);
  });
});
