import type { BanList } from '@guardian/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../app-error';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import type { TestUser } from '../test/context';
import { secondProcess, type SecondProcess } from '../test/second-process';
import { ListWriteBudget } from './list-write-budget';

const HOUR = 60 * 60_000;
/** A small budget, so that tests reach it: 4 writes or 6 item changes per 12 hours. */
const LIMITS = { requests: 4, items: 6, windowMs: 12 * HOUR };

let ctx: CloudflareTestContext;
/** A second app instance on the same database: its own pool on PostgreSQL (same schema). */
let second: SecondProcess;
let other: FastifyInstance;

beforeAll(async () => {
  ctx = await createCloudflareTestContext({ config: { jobs: { listWriteLimits: LIMITS } } });
  // PGlite is one process: the second app is a second process only on PostgreSQL.
  second = await secondProcess(ctx);
  other = second.app;
  // Both job queues up before the tests (a job's start waits for its queue): their start-up
  // scripts and the tests' statements then never meet on PGlite's one connection.
  const nobody = await ctx.createUser();
  for (const app of [ctx.app, other])
    expect(
      (await app.inject({ method: 'POST', url: '/api/cloudflare/zones/sync', headers: nobody.headers }))
        .statusCode,
    ).toBe(200);
});
afterAll(async () => {
  await second.close();
  await ctx.close();
});

const refusal = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe("Cloudflare's Lists write budget, counted in the database", () => {
  it('counts writes and item changes per account, and says when it frees up', async () => {
    const budget = new ListWriteBudget(ctx.db, LIMITS);
    await budget.take('acct-a', 'A Co', 5);
    await budget.take('acct-a', 'A Co', 1);
    // Another account has its own budget.
    await budget.take('acct-b', 'B Co', 6);
    const err = await refusal(budget.take('acct-a', 'A Co', 1));
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.message).toMatch(
      /^The lists of "A Co" have used Cloudflare's list write budget \(6 item changes and 4 writes per 12 hours\); nothing was sent\. It frees up in about 12 hours( 1 minute)? \(at \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$/,
    );
    // The oldest minute leaves the window after 12 hours (and at most a minute).
    expect(err.details.retryAfterSeconds).toBeGreaterThan(12 * 3600 - 10);
    expect(err.details.retryAfterSeconds).toBeLessThanOrEqual(12 * 3600 + 60);
    // A refused write counts nothing.
    const [{ items } = { items: 0 }] = await ctx.db.query<{ items: string }>(
      `SELECT sum(items)::text AS items FROM list_write_budget_minutes WHERE account_id = 'acct-a'`,
    );
    expect(Number(items)).toBe(6);
  });

  it('refuses a write larger than the whole budget, whatever is left', async () => {
    const err = await refusal(new ListWriteBudget(ctx.db, LIMITS).take('acct-c', 'C Co', 7));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toContain("larger than Cloudflare's whole list write budget");
  });

  it('frees up as the window moves on', async () => {
    const budget = new ListWriteBudget(ctx.db, { requests: 1, items: 100, windowMs: 60_000 });
    await budget.take('acct-d', 'D Co', 1);
    await refusal(budget.take('acct-d', 'D Co', 1));
    // Two minutes ago: out of the window.
    await ctx.db.query(
      `UPDATE list_write_budget_minutes SET minute = minute - 2 WHERE account_id = 'acct-d'`,
    );
    await budget.take('acct-d', 'D Co', 1);
  });

  it('is shared by two instances on one database: together they take no more than the budget', async () => {
    const one = new ListWriteBudget(ctx.db, LIMITS);
    const two = new ListWriteBudget(second.db, LIMITS);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).take('acct-e', 'E Co', 0)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(LIMITS.requests);
  });

  it('refuses a list write past the budget with 429 in words, before anything is sent; both apps share it', async () => {
    const alice: TestUser = await ctx.createUser();
    const account = await ctx.addAccount(alice, { name: 'Budget Co' });
    const created = ctx.sandbox.control.addList(account.account_id, { name: 'budget_list', kind: 'ip' });
    const call = (app: FastifyInstance, method: 'POST' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: alice.headers, payload });
    expect((await call(ctx.app, 'POST', '/update')).statusCode).toBe(200);
    expect((await call(ctx.app, 'POST', `/${created.id}/sync`)).json<BanList>().items).toBe(0);
    // Four writes, two through each app: the account's whole budget of writes.
    for (let i = 1; i <= 4; i++) {
      const added = await call(i % 2 ? ctx.app : other, 'POST', `/${created.id}/items`, {
        ip: `192.0.2.${i}`,
        comment: 'x',
      });
      expect(added.statusCode).toBe(201);
    }
    ctx.sandbox.control.resetCalls();
    for (const app of [ctx.app, other]) {
      const refused = await call(app, 'POST', `/${created.id}/items`, { ip: '192.0.2.9', comment: 'x' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(
        /^The lists of "Budget Co" have used Cloudflare's list write budget \(6 item changes and 4 writes per 12 hours\); nothing was sent\. It frees up in about 12 hours/,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3600);
    }
    // Nothing was sent to Cloudflare's list items.
    expect(ctx.sandbox.control.callLog({ path: /\/items$/ }).filter((c) => c.method !== 'GET')).toEqual([]);
    expect(ctx.sandbox.control.getListItems(account.account_id, created.id)).toHaveLength(4);
    // Clean All is refused the same way, as a job's error in the same words.
    const clean = await call(other, 'POST', '/clean');
    expect(clean.statusCode).toBe(429);
    expect(clean.json().message).toMatch(
      /^Could not empty "budget_list": The lists of "Budget Co" have used/,
    );
    expect(ctx.sandbox.control.getListItems(account.account_id, created.id)).toHaveLength(4);
  });
});
