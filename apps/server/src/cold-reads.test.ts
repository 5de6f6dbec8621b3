import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from './test/cloudflare-context';
import type { TestUser } from './test/context';

/**
 * Issue 36: the reads a person makes after any change, served from the database alone (the answer
 * caches off) in at most 3 round trips with the auth guard's: the IP Lists search (an address, a
 * range), the audit trail (a page, a search) and the jobs view take at most 2 of their own; the guard's
 * check of a session is one (own-sessions.test.ts), and none while the check is kept (2 s in
 * production, kept here so that a request's own statements can be counted).
 */
describe('cold reads: round trips per request', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({
      config: { answerCaches: false, sessionRecheckMs: 600_000, jobs: { waitMs: 600_000 } },
    });
    alice = await ctx.createUser();
    const account = await ctx.addAccount(alice, { name: 'Cold Co' });
    for (const name of ['cold_blocks', 'cold_office']) {
      const list = ctx.sandbox.control.addList(account.account_id, { name, kind: 'ip' });
      ctx.sandbox.control.seedListItems(
        account.account_id,
        list.id,
        Array.from({ length: 300 }, (_, i) => ({
          ip: `203.0.${i >> 8}.${i & 255}`,
          comment: `${name} ${i}`,
        })),
      );
    }
    const update = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/banlists/update',
      headers: alice.headers,
    });
    expect(update.statusCode, update.body).toBe(200);
  }, 600_000);
  afterAll(() => ctx.close());

  /** The statements `url` makes: not the job worker's (it polls the same database meanwhile). */
  async function statementsOf(url: string): Promise<string[]> {
    await ctx.app.inject({ method: 'GET', url, headers: alice.headers });
    const queries = vi.spyOn(ctx.db, 'query');
    try {
      const response = await ctx.app.inject({ method: 'GET', url, headers: alice.headers });
      expect(response.statusCode, response.body).toBe(200);
      return queries.mock.calls
        .map(([sql]) => sql.replace(/\s+/g, ' ').slice(0, 120))
        .filter((sql) => !/^(WITH j AS \( )?UPDATE jobs /.test(sql));
    } finally {
      queries.mockRestore();
    }
  }

  it.each([
    ['the IP Lists search for an address', '/api/cloudflare/ip-search?q=203.0.0.7'],
    ['the IP Lists search for a range', '/api/cloudflare/ip-search?q=203.0.1.0%2F24'],
    ['a page of the audit trail', '/api/audit'],
    ['a search of the audit trail', '/api/audit?q=cold'],
    ['the jobs view', '/api/jobs'],
  ])('%s', async (_, url) => {
    const statements = await statementsOf(url);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2);
  });
});
