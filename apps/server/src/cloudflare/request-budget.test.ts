import { createSandbox } from '@guardian/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareGateway, cloudflareErrorToAppError } from './';
import type { Db } from '../db';
import { createTestContext, type TestContext } from '../test/context';
import { countingDb } from '../test/counting-db';
import { secondProcessDb } from '../test/second-process';
import { DatabaseRequestBudget } from './request-budget';

let ctx: TestContext;
let other: Db;
beforeAll(async () => {
  ctx = await createTestContext();
  // A second app instance on the same database: its own pool on PostgreSQL (same schema).
  other = await secondProcessDb(ctx);
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

describe('the words when a call is held back (issue 41)', () => {
  /** A gateway to a fresh sandbox whose token has `requests` a minute in the database budget. */
  async function heldBack(requests: number) {
    const sandbox = await createSandbox({ rateLimit: false });
    const baseUrl = await sandbox.listen(0, '127.0.0.1');
    const account = sandbox.control.addAccount({ name: 'Held Co', plan: 'enterprise' });
    const token = `held-token-${Math.random().toString(36).slice(2)}`;
    sandbox.control.addToken({ value: token, accountIds: [account.id] });
    const gateway = new CloudflareGateway({
      baseUrl,
      timeoutMs: 1_000,
      maxRetries: 0,
      rateLimit: { requests, windowMs: 60_000 },
      maxRetryAfterMs: 1_000,
      throttleFor: (key, limit) => new DatabaseRequestBudget(ctx.db, key, limit.requests, limit.windowMs),
    });
    const client = gateway.client(token);
    const refusal = () =>
      client.zones.list().then(
        () => undefined,
        (err: unknown) => cloudflareErrorToAppError(err),
      );
    return { sandbox, refusal };
  }

  it("says Guardian's own per-token budget is used up, not that Cloudflare rate limits, and when it frees", async () => {
    const { sandbox, refusal } = await heldBack(2);
    try {
      expect(await refusal()).toBeUndefined();
      expect(await refusal()).toBeUndefined();
      const held = (await refusal())!;
      expect(held.code).toBe('RATE_LIMITED');
      expect(held.message).toMatch(
        /^Guardian's own limit of 2 calls to Cloudflare per minute for this account's API token is used up \(Cloudflare refused nothing\); nothing was sent\. It frees up in (5\d|60) seconds: please try again then\.$/,
      );
      expect(held.details.retryAfterSeconds).toBeGreaterThan(50);
      expect(sandbox.control.callCount({ path: /\/zones$/ })).toBe(2);
    } finally {
      await sandbox.close();
    }
  });

  it("still says Cloudflare's when Cloudflare asked to wait", async () => {
    const { sandbox, refusal } = await heldBack(100);
    try {
      sandbox.control.injectFault({ path: /\/zones$/, status: 429, retryAfterSeconds: 120, times: 1 });
      expect((await refusal())!.message).toBe(
        'Cloudflare is rate limiting this account. Please try again in 2 minutes.',
      );
      // Held back locally now, for Cloudflare's reason (once the hold is written: blockFor does not wait).
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await refusal())!.message).toMatch(/^Cloudflare is rate limiting this account\./);
      expect(sandbox.control.callCount({ path: /\/zones$/ })).toBe(1);
    } finally {
      await sandbox.close();
    }
  });
});
