import type { AuditPage, CreatedApiKey, OwnSession } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';

const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';

describe("a person's sessions", () => {
  let ctx: TestContext;
  let ada: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    ada = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  /** Signs in as `user` from a browser: answers the new session's headers. */
  const signIn = async (user: TestUser, userAgent: string, address = '127.0.0.1') => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: address,
      headers: { 'user-agent': userAgent },
      payload: { email: user.email, password: user.password },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { authorization: `Bearer ${response.json<{ token: string }>().token}` };
  };
  const sessionsOf = async (headers: { authorization: string }) => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/me/sessions', headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OwnSession[]>();
  };

  it('keep the browser and the address they were opened from (the browser cut to 256 characters) and when they were last used', async () => {
    const laptop = await signIn(ada, FIREFOX, '198.51.100.23');
    const script = await signIn(ada, `curl/8.5.0 ${'x'.repeat(400)}`);
    // A client that sends no browser (an empty one) has none.
    const bare = await signIn(ada, '');
    const sessions = await sessionsOf(laptop);
    const [newest, second, third] = sessions;
    expect(newest).toMatchObject({ user_agent: null, current: false });
    expect(second!.user_agent).toHaveLength(256);
    expect(second!.user_agent).toMatch(/^curl\/8\.5\.0 x+$/);
    expect(third).toMatchObject({ user_agent: FIREFOX, address: '198.51.100.23', current: true });
    // The laptop's session was used just now (this read); the others not since they opened.
    expect(third!.last_seen_at).not.toBeNull();
    expect(newest!.last_seen_at).toBeNull();
    await sessionsOf(bare);
    await sessionsOf(script);
    const seen = (await sessionsOf(laptop)).slice(0, 3).map((session) => session.last_seen_at);
    expect(seen.every((at) => at !== null)).toBe(true);
  });

  it('are checked in one statement that also notes them as used (issue 36: the auth guard costs one round trip)', async () => {
    const laptop = await signIn(ada, FIREFOX);
    const queries = vi.spyOn(ctx.db, 'query');
    try {
      await sessionsOf(laptop);
      const sessionStatements = queries.mock.calls.filter(
        ([sql]) => /\bsessions\b/.test(sql) && !/ORDER BY created_at/.test(sql),
      );
      expect(sessionStatements.map(([sql]) => sql.replace(/\s+/g, ' ').slice(0, 80))).toHaveLength(1);
    } finally {
      queries.mockRestore();
    }
    expect((await sessionsOf(laptop)).find((session) => session.current)!.last_seen_at).not.toBeNull();
  });

  it('Sign out all other sessions ends every one but this one; API keys stay; it is in the trail', async () => {
    const bea = await ctx.createUser();
    const here = await signIn(bea, FIREFOX);
    const phone = await signIn(bea, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1');
    const key = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/me/api-keys',
        headers: here,
        payload: { name: 'fail2ban', access: 'ban' },
      })
    ).json<CreatedApiKey>();
    const others = [phone, bea.headers];

    const ended = await ctx.app.inject({ method: 'DELETE', url: '/api/me/sessions', headers: here });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({ ended: 2 });

    expect((await sessionsOf(here)).map((session) => session.current)).toEqual([true]);
    for (const headers of others) {
      const refused = await ctx.app.inject({ method: 'GET', url: '/api/me', headers });
      expect(refused.statusCode).toBe(401);
    }
    const byKey = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/accounts',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(byKey.statusCode).toBe(200);
    // A key is no session: it may not end them.
    const keyTries = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/me/sessions',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(keyTries.statusCode).toBe(403);

    const trail = (
      await ctx.app.inject({ method: 'GET', url: '/api/audit?action=ownAccount.', headers: here })
    ).json<AuditPage>();
    expect(trail.events.map((event) => event.summary)).toContain(
      `${bea.email} signed out all their other sessions (2 sessions)`,
    );
  });
});
