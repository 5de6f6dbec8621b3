import { OUTCOME_HEADER, type PageRule } from '@guardian/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestUser } from '../../test/context';
import { lossyNetwork, throughNetwork } from '../../test/lossy-network';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';
import { addOwnedZone } from '../../test/zone';

const target = (value: string) => [{ target: 'url', constraint: { operator: 'matches', value } }];

/** Cloudflare's answers to writes, lost when a test says so (test/lossy-network.ts). */
const network = lossyNetwork();

describe('page rules', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite), throughNetwork(network));
  beforeEach(() => network.reset());
  const checked = (found: string) => `Cloudflare's answer was lost; Guardian checked: ${found}.`;

  const url = (zoneId: string, rest = '') => `/api/cloudflare/zones/${zoneId}/pagerules${rest}`;
  const list = (user: TestUser, zoneId: string) =>
    ctx.app.inject({ method: 'GET', url: url(zoneId), headers: user.headers });
  const add = (user: TestUser, zoneId: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: url(zoneId), headers: user.headers, payload });
  const update = (user: TestUser, zoneId: string, ruleId: string, payload: object) =>
    ctx.app.inject({ method: 'PUT', url: url(zoneId, `/${ruleId}`), headers: user.headers, payload });
  const remove = (user: TestUser, zoneId: string, ruleId: string) =>
    ctx.app.inject({ method: 'DELETE', url: url(zoneId, `/${ruleId}`), headers: user.headers });

  /** The spec's add payload: priority 1, status active. */
  const newRule = (pattern: string, actions: object[]) => ({
    targets: target(pattern),
    actions,
    priority: 1,
    status: 'active',
  });

  /** Writes a page rule straight at Cloudflare, as the dashboard would. */
  async function seedAtCloudflare(token: string, zoneId: string, rule: object) {
    const response = await ctx.sandbox.app.inject({
      method: 'POST',
      url: `/client/v4/zones/${zoneId}/pagerules`,
      headers: { authorization: `Bearer ${token}` },
      payload: rule,
    });
    expect(response.statusCode).toBe(200);
  }

  it('lists a zone without page rules as empty', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const response = await list(alice, zoneId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('adds a forwarding rule with priority 1 and status active', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const forwarding = {
      id: 'forwarding_url',
      value: { status_code: 302, url: 'https://example.com/new/$1' },
    };
    const response = await add(alice, zoneId, newRule('example.com/old/*', [forwarding]));
    expect(response.statusCode).toBe(201);
    const rule = response.json() as PageRule;
    expect(rule).toEqual({
      id: expect.any(String),
      priority: 1,
      status: 'active',
      targets: target('example.com/old/*'),
      actions: [forwarding],
    });
    expect(ctx.sandbox.control.getPageRules(zoneId)).toMatchObject([
      { id: rule.id, status: 'active', priority: 1, actions: [forwarding] },
    ]);
  });

  it('defaults a new rule to priority 1 and status active when they are left out', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const response = await add(alice, zoneId, {
      targets: target('a.example.com/*'),
      actions: [{ id: 'waf', value: 'on' }],
    });
    expect(response.json()).toMatchObject({ priority: 1, status: 'active' });
  });

  it("translates the catalogue's settings to Cloudflare's actions, and back", async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const groups = [
      [
        { id: 'always_use_https', value: 'on' },
        { id: 'automatic_https_rewrites', value: 'off' },
        { id: 'ssl', value: 'strict' },
      ],
      [
        { id: 'browser_cache_ttl', value: 14400 },
        { id: 'edge_cache_ttl', value: '7200' },
        { id: 'cache_level', value: 'standard' },
        { id: 'sort_query_string_for_cache', value: 'on' },
      ],
      [
        { id: 'rocket_loader', value: 'automatic' },
        { id: 'respect_strong_etags', value: 'on' },
        { id: 'polish', value: 'lossy' },
      ],
      [
        { id: 'security_level', value: 'under_attack' },
        { id: 'browser_integrity_check', value: 'off' },
        { id: 'disable_security', value: 'on' },
      ],
      [
        { id: 'host_header_override', value: 'origin.example.net' },
        { id: 'resolve_override', value: 'backend.example.net' },
      ],
      [
        { id: 'disable_apps', value: 'on' },
        { id: 'disable_performance', value: 'on' },
      ],
    ];
    for (const [index, actions] of groups.entries()) {
      const response = await add(alice, zoneId, newRule(`example.com/group-${index}/*`, actions));
      expect(response.statusCode).toBe(201);
      expect(response.json().actions).toEqual(actions);
    }
    // What Cloudflare stores for the settings it names or words otherwise; the rest it stores as sent.
    const storedAs: Record<string, object> = {
      always_use_https: { id: 'always_use_https' },
      edge_cache_ttl: { id: 'edge_cache_ttl', value: 7200 },
      cache_level: { id: 'cache_level', value: 'aggressive' },
      rocket_loader: { id: 'rocket_loader', value: 'on' },
      respect_strong_etags: { id: 'respect_strong_etag', value: 'on' },
      browser_integrity_check: { id: 'browser_check', value: 'off' },
      disable_security: { id: 'disable_security' },
      disable_apps: { id: 'disable_apps' },
      disable_performance: { id: 'disable_performance' },
    };
    const atCloudflare = ctx.sandbox.control.getPageRules(zoneId).map((rule) => rule.actions);
    expect(atCloudflare).toEqual(
      expect.arrayContaining(groups.map((actions) => actions.map((action) => storedAs[action.id] ?? action))),
    );
    const listed = (await list(alice, zoneId)).json() as PageRule[];
    expect(listed.map((rule) => rule.priority)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(listed.map((rule) => rule.actions)).toEqual(expect.arrayContaining(groups));
  });

  it('lists by ascending priority, showing and keeping what only Cloudflare offers', async () => {
    const { zoneId, token } = await addOwnedZone(ctx, alice);
    await seedAtCloudflare(token, zoneId, {
      targets: target('example.com/static/*'),
      actions: [
        { id: 'cache_level', value: 'basic' },
        { id: 'cache_on_cookie', value: 'session' },
      ],
      priority: 1,
      status: 'active',
    });
    await seedAtCloudflare(token, zoneId, {
      targets: target('example.com/secure/*'),
      actions: [{ id: 'ssl', value: 'origin_pull' }],
      priority: 2,
      status: 'disabled',
    });
    const [low, high] = (await list(alice, zoneId)).json() as PageRule[];
    expect(low).toMatchObject({
      priority: 1,
      actions: [
        { id: 'cache_level', value: 'basic' },
        { id: 'cache_on_cookie', value: 'session' },
      ],
    });
    expect(high).toMatchObject({
      priority: 2,
      status: 'disabled',
      actions: [{ id: 'ssl', value: 'origin_pull' }],
    });

    // The toggle sends the full rule with its status flipped: nothing else may change.
    const toggled = await update(alice, zoneId, low!.id, { ...low, status: 'disabled' });
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json()).toEqual({ ...low, status: 'disabled' });
    expect(ctx.sandbox.control.getPageRules(zoneId)[0]).toMatchObject({
      status: 'disabled',
      actions: [
        { id: 'cache_level', value: 'basic' },
        { id: 'cache_on_cookie', value: 'session' },
      ],
    });
  });

  it('edits a rule keeping its priority and status', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    await add(alice, zoneId, newRule('example.com/a/*', [{ id: 'waf', value: 'on' }]));
    const second = (
      await add(alice, zoneId, newRule('example.com/b/*', [{ id: 'mirage', value: 'on' }]))
    ).json();
    // The second rule took priority 1; the first moved up to 2.
    const [first] = (await list(alice, zoneId)).json().filter((rule: PageRule) => rule.id !== second.id);
    expect(first.priority).toBe(2);

    const edited = await update(alice, zoneId, first.id, {
      id: first.id,
      targets: target('example.com/c/*'),
      actions: [{ id: 'security_level', value: 'high' }],
      priority: first.priority,
      status: first.status,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toEqual({
      id: first.id,
      priority: 2,
      status: 'active',
      targets: target('example.com/c/*'),
      actions: [{ id: 'security_level', value: 'high' }],
    });
  });

  it.each([
    [{ targets: target(' '), actions: [{ id: 'waf', value: 'on' }] }, 'URL pattern is required.'],
    [{ targets: target('x/*'), actions: [] }, 'Add at least one setting.'],
    [
      { targets: target('x/*'), actions: [{ id: 'teleport', value: 'on' }] },
      'Unknown page rule setting "teleport".',
    ],
    [
      { targets: target('x/*'), actions: [{ id: 'waf', value: 'yes' }] },
      'Web Application Firewall must be on or off.',
    ],
    [
      { targets: target('x/*'), actions: [{ id: 'ssl', value: 'strictest' }] },
      'SSL must be one of off, flexible',
    ],
    [
      { targets: target('x/*'), actions: [{ id: 'edge_cache_ttl', value: '' }] },
      'Edge Cache TTL (seconds) is required.',
    ],
    [{ targets: target('x/*'), actions: [{ id: 'edge_cache_ttl', value: '1h' }] }, 'must be a whole number'],
    [
      { targets: target('x/*'), actions: [{ id: 'host_header_override', value: '' }] },
      'Host Header Override is required.',
    ],
    [
      {
        targets: target('x/*'),
        actions: [{ id: 'forwarding_url', value: { status_code: 303, url: 'https://a' } }],
      },
      'The redirect code must be 301 or 302.',
    ],
    [
      { targets: target('x/*'), actions: [{ id: 'forwarding_url', value: { status_code: 301, url: '' } }] },
      'The destination URL is required.',
    ],
    [
      {
        targets: target('x/*'),
        actions: [
          { id: 'forwarding_url', value: { status_code: 301, url: 'https://a' } },
          { id: 'waf', value: 'on' },
        ],
      },
      'Forwarding URL cannot be combined with other settings.',
    ],
    [
      {
        targets: target('x/*'),
        actions: [
          { id: 'waf', value: 'on' },
          { id: 'waf', value: 'off' },
        ],
      },
      'The setting "waf" is added twice.',
    ],
    [
      // Issue 18: this was saved.
      {
        targets: target('x/*'),
        actions: [{ id: 'forwarding_url', value: { status_code: 301, url: 'not a url' } }],
      },
      'The destination URL must be a full http:// or https:// address, such as https://www.example.com/$1.',
    ],
    [
      {
        targets: target('x/*'),
        actions: [{ id: 'forwarding_url', value: { status_code: 302, url: 'www.example.com/new' } }],
      },
      'The destination URL must be a full http:// or https:// address',
    ],
  ])('answers 400 for %j', async (payload, message) => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const response = await add(alice, zoneId, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(ctx.sandbox.control.getPageRules(zoneId)).toEqual([]);
  });

  it('marks the destination URL field it refuses', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const response = await add(
      alice,
      zoneId,
      newRule('example.com/*', [{ id: 'forwarding_url', value: { status_code: 301, url: 'not a url' } }]),
    );
    expect(response.json().errors).toEqual([expect.objectContaining({ field: 'actions.0.value.url' })]);
  });

  it.each([
    [
      { id: 'server_side_exclude', value: 'on' },
      'Cloudflare retired Server Side Excludes: remove the setting.',
    ],
    [
      { id: 'disable_railgun', value: 'on' },
      'Cloudflare retired Railgun: remove the Disable Railgun setting.',
    ],
    [
      { id: 'rocket_loader', value: 'manual' },
      'Cloudflare no longer offers a manual Rocket Loader: choose Automatic or Off.',
    ],
    [
      { id: 'always_use_https', value: 'off' },
      'Always Use HTTPS has no off state at Cloudflare: remove the setting instead.',
    ],
  ])('refuses %j, which Cloudflare no longer has, with the reason', async (action, message) => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    ctx.sandbox.control.resetCalls();
    const response = await add(alice, zoneId, newRule('example.com/*', [action]));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(ctx.sandbox.control.callCount({ method: 'POST' })).toBe(0);
  });

  it("shows Cloudflare's own refusal: a second rule for the same URL", async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    await add(alice, zoneId, newRule('example.com/same/*', [{ id: 'waf', value: 'on' }]));
    const response = await add(alice, zoneId, newRule('example.com/same/*', [{ id: 'mirage', value: 'on' }]));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('already has an existing page rule with that URL');
  });

  it("answers Cloudflare's plan limit: 3 page rules on a Free plan", async () => {
    const { zoneId } = await addOwnedZone(ctx, alice, 'free');
    for (let i = 1; i <= 3; i++) {
      expect(
        (await add(alice, zoneId, newRule(`example.com/${i}/*`, [{ id: 'waf', value: 'on' }]))).statusCode,
      ).toBe(201);
    }
    const fourth = await add(alice, zoneId, newRule('example.com/4/*', [{ id: 'waf', value: 'on' }]));
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json().message).toContain('page rules of its plan');
    expect(ctx.sandbox.control.getPageRules(zoneId)).toHaveLength(3);
  });

  it('answers an add and a delete done when Cloudflare applied them but the answers were lost', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    await add(alice, zoneId, newRule('example.com/other/*', [{ id: 'waf', value: 'on' }]));
    network.lose(1);
    const added = await add(alice, zoneId, newRule('example.com/lost/*', [{ id: 'waf', value: 'off' }]));
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      targets: target('example.com/lost/*'),
      actions: [{ id: 'waf', value: 'off' }],
    });
    expect(ctx.sandbox.control.getPageRules(zoneId)).toHaveLength(2);

    network.lose(1);
    const removed = await remove(alice, zoneId, added.json().id);
    network.lose(0);
    expect(removed.statusCode).toBe(204);
    expect(removed.headers[OUTCOME_HEADER]).toBe(checked('the rule was deleted'));
    expect(ctx.sandbox.control.getPageRules(zoneId)).toHaveLength(1);
  });

  describe('an update or delete whose answer was lost (issue 41)', () => {
    const seeded = async (zoneId: string) =>
      (
        await add(alice, zoneId, newRule('example.com/edit/*', [{ id: 'waf', value: 'on' }]))
      ).json<PageRule>();

    it('answers the rule Cloudflare saved though every answer to the save was lost, saying Guardian checked', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rule = await seeded(zoneId);
      network.lose(10);
      const response = await update(alice, zoneId, rule.id, { ...rule, status: 'disabled' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: rule.id, status: 'disabled' });
      expect(response.headers[OUTCOME_HEADER]).toBe(checked('the rule was updated'));
      expect(ctx.sandbox.control.getPageRules(zoneId)).toMatchObject([{ id: rule.id, status: 'disabled' }]);
    });

    it('says the rule was not updated when Cloudflare failed every attempt', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rule = await seeded(zoneId);
      ctx.sandbox.control.injectFault({ method: 'PUT', path: `/zones/${zoneId}/pagerules`, status: 503 });
      const response = await update(alice, zoneId, rule.id, { ...rule, status: 'disabled' });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(`${checked('the rule was not updated')} Please try again.`);
      expect(ctx.sandbox.control.getPageRules(zoneId)).toMatchObject([{ id: rule.id, status: 'active' }]);
    });

    it('says Guardian could not check when the rule cannot be read back either', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rule = await seeded(zoneId);
      network.lose(10, { failReads: true });
      const response = await update(alice, zoneId, rule.id, { ...rule, status: 'disabled' });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(
        "Cloudflare's answer was lost, and Guardian could not check whether the rule was updated. Reload the page to see what Cloudflare has before trying again.",
      );
    });

    it('says the rule was not deleted when Cloudflare failed every attempt and still has it', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rule = await seeded(zoneId);
      ctx.sandbox.control.injectFault({ method: 'DELETE', path: `/zones/${zoneId}/pagerules`, status: 503 });
      const response = await remove(alice, zoneId, rule.id);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(`${checked('the rule was not deleted')} Please try again.`);
      expect(ctx.sandbox.control.getPageRules(zoneId)).toHaveLength(1);
    });
  });

  it('deletes a rule', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const rule = (await add(alice, zoneId, newRule('example.com/*', [{ id: 'waf', value: 'on' }]))).json();
    const response = await remove(alice, zoneId, rule.id);
    expect(response.statusCode).toBe(204);
    expect(ctx.sandbox.control.getPageRules(zoneId)).toEqual([]);
  });

  it('answers 404 for a rule id that is not in the zone (also one of another zone of the same user)', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const other = await addOwnedZone(ctx, alice);
    const foreign = (
      await add(alice, other.zoneId, newRule('other.example.com/*', [{ id: 'waf', value: 'on' }]))
    ).json();
    for (const ruleId of ['0123456789abcdef0123456789abcdef', foreign.id]) {
      const edited = await update(alice, zoneId, ruleId, { ...foreign, id: undefined });
      expect(edited.statusCode).toBe(404);
      expect(edited.json().message).toBe('Page rule not found.');
      expect((await remove(alice, zoneId, ruleId)).statusCode).toBe(404);
    }
    expect(ctx.sandbox.control.getPageRules(other.zoneId)).toHaveLength(1);
  });

  it('answers 400 when the body names another rule than the address', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const rule = (await add(alice, zoneId, newRule('example.com/*', [{ id: 'waf', value: 'on' }]))).json();
    const response = await update(alice, zoneId, rule.id, { ...rule, id: 'another' });
    expect(response.statusCode).toBe(400);
  });

  it("answers 404 for another user's zone on every call, and changes nothing there", async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const rule = (await add(alice, zoneId, newRule('example.com/*', [{ id: 'waf', value: 'on' }]))).json();
    const answers = [
      await list(bob, zoneId),
      await add(bob, zoneId, newRule('evil.example.com/*', [{ id: 'waf', value: 'off' }])),
      await update(bob, zoneId, rule.id, { ...rule, status: 'disabled' }),
      await remove(bob, zoneId, rule.id),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toBe('Zone not found.');
    }
    expect(ctx.sandbox.control.getPageRules(zoneId)).toMatchObject([{ id: rule.id, status: 'active' }]);
  });
});
