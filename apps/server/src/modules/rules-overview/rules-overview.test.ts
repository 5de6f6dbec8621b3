import { rulesOverviewEndpoints, type RulesOverviewResponse } from '@guardian/contract';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../test/context';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';
import { requestTo } from '../../test/request';
import { addOwnedZone } from '../../test/zone';
import { mapWithConcurrency } from './concurrency';
import { ZONE_READS_AT_ONCE } from './rules-overview.service';

describe('rules overview', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));

  const overview = (user: TestUser, query: Record<string, string>) =>
    ctx.app.inject({ ...requestTo(rulesOverviewEndpoints.get, { query }), headers: user.headers });

  /** Two firewall rules, one found by its description, the other by its expression. */
  const SCRAPERS_AND_ADMIN = [
    { description: 'Block scrapers', expression: '(http.user_agent contains "Scraper")' },
    { description: 'Admin area', expression: '(http.request.uri.path contains "/wp-admin")' },
  ];

  /** Writes rules straight at Cloudflare, as the dashboard would. */
  async function seedRules(
    token: string,
    zoneId: string,
    firewall: { description: string; expression: string }[],
    pages: string[],
  ) {
    const headers = { authorization: `Bearer ${token}` };
    if (firewall.length > 0) {
      const response = await ctx.sandbox.app.inject({
        method: 'PUT',
        url: `/client/v4/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`,
        headers,
        payload: { rules: firewall.map((rule) => ({ ...rule, action: 'block' })) },
      });
      expect(response.statusCode).toBe(200);
    }
    for (const url of pages) {
      const response = await ctx.sandbox.app.inject({
        method: 'POST',
        url: `/client/v4/zones/${zoneId}/pagerules`,
        headers,
        payload: {
          targets: [{ target: 'url', constraint: { operator: 'matches', value: url } }],
          actions: [{ id: 'always_use_https' }],
          status: 'active',
        },
      });
      expect(response.statusCode).toBe(200);
    }
  }

  it('counts each zone’s firewall and page rules, in the order asked', async () => {
    const one = await addOwnedZone(ctx, alice);
    const two = await addOwnedZone(ctx, alice);
    await seedRules(one.token, one.zoneId, SCRAPERS_AND_ADMIN, ['one.example.com/old/*']);
    const response = await overview(alice, { zone_ids: `${two.zoneId},${one.zoneId}` });
    expect(response.statusCode).toBe(200);
    const { zones } = response.json<RulesOverviewResponse>();
    expect(zones.map((zone) => zone.zone_id)).toEqual([two.zoneId, one.zoneId]);
    expect(zones[0]).toMatchObject({
      firewallRules: { total: 0, matchCount: 0, matches: [] },
      pageRules: { total: 0, matchCount: 0, matches: [] },
    });
    expect(zones[1]!.domain).toMatch(/^rules-\d+\.example\.com$/);
    expect(zones[1]).toMatchObject({
      firewallRules: { total: 2, matchCount: 0, matches: [] },
      pageRules: { total: 1, matchCount: 0, matches: [] },
    });
  });

  it('finds rules by description or expression, and page rules by URL, case-insensitively', async () => {
    const zone = await addOwnedZone(ctx, alice);
    await seedRules(zone.token, zone.zoneId, SCRAPERS_AND_ADMIN, [
      'shop.example.com/WP-ADMIN/*',
      'shop.example.com/cart/*',
    ]);
    const byExpression = (
      await overview(alice, { zone_ids: zone.zoneId, search: 'wp-admin' })
    ).json<RulesOverviewResponse>();
    expect(byExpression.zones[0]!.firewallRules).toMatchObject({
      total: 2,
      matchCount: 1,
      matches: [{ description: 'Admin area', priority: 2, action: 'block', paused: false }],
    });
    expect(byExpression.zones[0]!.pageRules).toMatchObject({
      total: 2,
      matchCount: 1,
      matches: [{ url: 'shop.example.com/WP-ADMIN/*', status: 'active' }],
    });
    const byDescription = (
      await overview(alice, { zone_ids: zone.zoneId, search: ' SCRAPERS ' })
    ).json<RulesOverviewResponse>();
    expect(byDescription.zones[0]!.firewallRules).toMatchObject({
      matchCount: 1,
      matches: [{ description: 'Block scrapers' }],
    });
  });

  it('tells the ban lists what the rules it reads say they are for (issue 35 item 9)', async () => {
    const carol = await ctx.createUser();
    const zone = await addOwnedZone(ctx, carol);
    const accounts = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/accounts',
      headers: carol.headers,
    });
    const [account] = accounts.json<{ account_name: string }[]>();
    // A name that says nothing of its purpose; a rule written at Cloudflare blocks its addresses.
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/banlists',
      headers: carol.headers,
      payload: { account_name: account!.account_name, list_name: 'watched', kind: 'ip' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await seedRules(
      zone.token,
      zone.zoneId,
      [{ description: 'Watched out', expression: '(ip.src in $watched)' }],
      [],
    );
    const watched = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/banlists', headers: carol.headers }))
        .json<{ list_name: string; purpose: string | null; purpose_source: string | null }[]>()
        .find((list) => list.list_name === 'watched');
    expect(await watched()).toMatchObject({ purpose: null, purpose_source: null });

    expect((await overview(carol, { zone_ids: zone.zoneId })).statusCode).toBe(200);
    expect(await watched()).toMatchObject({ purpose: 'block', purpose_source: 'rules' });
  });

  it('keeps a failed zone’s error in its row; the other zones still answer', async () => {
    const ok = await addOwnedZone(ctx, alice);
    const broken = await addOwnedZone(ctx, alice);
    const fault = ctx.sandbox.control.injectFault({ path: `/zones/${broken.zoneId}/pagerules`, status: 503 });
    try {
      const response = await overview(alice, { zone_ids: `${ok.zoneId},${broken.zoneId}` });
      expect(response.statusCode).toBe(200);
      const { zones } = response.json<RulesOverviewResponse>();
      expect(zones[0]).toMatchObject({ firewallRules: { total: 0 }, pageRules: { total: 0 } });
      expect(zones[1]).toMatchObject({
        firewallRules: { total: 0 },
        pageRules: { error: 'Cloudflare is unavailable right now. Please try again.' },
      });
    } finally {
      ctx.sandbox.control.removeFault(fault.id);
    }
  });

  it("answers another person's or an unknown zone as not found, without calling Cloudflare for it", async () => {
    const alices = await addOwnedZone(ctx, alice);
    ctx.sandbox.control.resetCalls();
    const response = await overview(bob, { zone_ids: `${alices.zoneId},${'f'.repeat(32)}` });
    expect(response.statusCode).toBe(200);
    for (const zone of response.json<RulesOverviewResponse>().zones) {
      expect(zone).toMatchObject({
        domain: null,
        firewallRules: { error: 'Zone not found.' },
        pageRules: { error: 'Zone not found.' },
      });
    }
    expect(ctx.sandbox.control.callCount()).toBe(0);
  });

  it.each([
    [{}, 'zone_ids is required'],
    [{ zone_ids: ' , ' }, 'zone_ids is required'],
    [{ zone_ids: Array.from({ length: 26 }, (_, i) => `z${i}`).join(',') }, 'At most 25 zones a request.'],
    [{ zone_ids: 'a', search: 'x'.repeat(201) }, 'The search is at most 200 characters.'],
  ])('refuses %j with a 400', async (query, words) => {
    const response = await overview(alice, query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain(words);
  });

  it('reads a few zones at a time', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithConcurrency(
      Array.from({ length: 25 }, (_, i) => i),
      ZONE_READS_AT_ONCE,
      async (n) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5 + (n % 3)));
        running -= 1;
        return n * 2;
      },
    );
    expect(most).toBe(ZONE_READS_AT_ONCE);
    expect(results).toEqual(Array.from({ length: 25 }, (_, i) => i * 2));
  });
});
