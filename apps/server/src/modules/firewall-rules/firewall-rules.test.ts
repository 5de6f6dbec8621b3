import { OUTCOME_HEADER, type FirewallRule } from '@guardian/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestUser } from '../../test/context';
import { lossyNetwork, throughNetwork } from '../../test/lossy-network';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';
import { addOwnedZone } from '../../test/zone';

const ENTRYPOINT = /\/rulesets\/phases\/http_request_firewall_custom\/entrypoint$/;
const WRITE_METHODS = ['PUT', 'POST', 'PATCH', 'DELETE'] as const;

/** Cloudflare's answers to writes, lost when a test says so (test/lossy-network.ts). */
const network = lossyNetwork();

describe('firewall rules (WAF custom rules)', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite), throughNetwork(network));
  beforeEach(() => network.reset());
  const checked = (found: string) => `Cloudflare's answer was lost; Guardian checked: ${found}.`;

  const url = (zoneId: string, rest = '') => `/api/cloudflare/zones/${zoneId}/firewall-rules${rest}`;
  const list = (user: TestUser, zoneId: string) =>
    ctx.app.inject({ method: 'GET', url: url(zoneId), headers: user.headers });
  const add = (user: TestUser, zoneId: string, rule: object) =>
    ctx.app.inject({ method: 'POST', url: url(zoneId), headers: user.headers, payload: [rule] });
  const update = (user: TestUser, zoneId: string, ruleId: string, rule: object) =>
    ctx.app.inject({ method: 'PUT', url: url(zoneId, `/${ruleId}`), headers: user.headers, payload: rule });
  const reorder = (user: TestUser, zoneId: string, rules: object[]) =>
    ctx.app.inject({ method: 'PUT', url: url(zoneId), headers: user.headers, payload: rules });
  const remove = (user: TestUser, zoneId: string, ruleId: string, filterId?: string) =>
    ctx.app.inject({
      method: 'DELETE',
      url: url(zoneId, `/${ruleId}${filterId === undefined ? '' : `?filter_id=${filterId}`}`),
      headers: user.headers,
    });

  /** The spec's add payload: one rule, not paused. */
  const newRule = (description: string, expression: string, action = 'block') => ({
    description,
    action,
    paused: false,
    filter: { expression, paused: false },
  });

  async function addRules(user: TestUser, zoneId: string, count: number): Promise<FirewallRule[]> {
    let rules: FirewallRule[] = [];
    for (let i = 1; i <= count; i++) {
      const response = await add(user, zoneId, newRule(`Rule ${i}`, `http.request.uri.path eq "/r${i}"`));
      expect(response.statusCode).toBe(201);
      rules = response.json().result;
    }
    return rules;
  }

  /** Writes rules straight at Cloudflare, as the dashboard or Terraform would. */
  async function seedAtCloudflare(token: string, zoneId: string, rules: object[]) {
    const response = await ctx.sandbox.app.inject({
      method: 'PUT',
      url: `/client/v4/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      headers: { authorization: `Bearer ${token}` },
      payload: { rules },
    });
    expect(response.statusCode).toBe(200);
  }

  const writesTo = (zoneId: string) =>
    WRITE_METHODS.reduce(
      (total, method) =>
        total + ctx.sandbox.control.callCount({ method, path: new RegExp(`/zones/${zoneId}/`) }),
      0,
    );

  describe('listing', () => {
    it('answers an empty list for a zone that has never had custom rules (Cloudflare answers 404)', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const response = await list(alice, zoneId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
      expect(ctx.sandbox.control.callCount({ method: 'GET', path: ENTRYPOINT })).toBeGreaterThan(0);
    });

    it('maps each custom rule: priority is the position, paused is !enabled, the filter is the rule', async () => {
      const { zoneId, token } = await addOwnedZone(ctx, alice);
      await seedAtCloudflare(token, zoneId, [
        { description: 'Block bad', expression: 'ip.src eq 192.0.2.1', action: 'block' },
        {
          description: 'Paused one',
          expression: 'cf.threat_score gt 10',
          action: 'managed_challenge',
          enabled: false,
        },
        { description: 'JS', expression: 'http.user_agent contains "curl"', action: 'js_challenge' },
      ]);
      const [first, second, third] = ctx.sandbox.control.getRules(zoneId);
      const response = await list(alice, zoneId);
      expect(response.json()).toEqual([
        {
          id: first!.id,
          description: 'Block bad',
          action: 'block',
          paused: false,
          priority: 1,
          filter: { id: first!.id, expression: 'ip.src eq 192.0.2.1', paused: false },
        },
        {
          id: second!.id,
          description: 'Paused one',
          action: 'managed_challenge',
          paused: true,
          priority: 2,
          filter: { id: second!.id, expression: 'cf.threat_score gt 10', paused: true },
        },
        expect.objectContaining({ id: third!.id, action: 'js_challenge', priority: 3 }),
      ]);
    });

    it('reads allow and skip apart by what the skip leaves out, and shows log as it is', async () => {
      const { zoneId, token } = await addOwnedZone(ctx, alice, 'enterprise');
      await seedAtCloudflare(token, zoneId, [
        { expression: 'ip.src eq 192.0.2.2', action: 'skip', action_parameters: { ruleset: 'current' } },
        {
          expression: 'ip.src eq 192.0.2.3',
          action: 'skip',
          action_parameters: { phases: ['http_ratelimit'] },
        },
        {
          expression: 'ip.src eq 192.0.2.4',
          action: 'skip',
          action_parameters: { ruleset: 'current', products: ['waf'] },
        },
        { expression: 'ip.src eq 192.0.2.5', action: 'log' },
      ]);
      const actions = (await list(alice, zoneId)).json().map((rule: FirewallRule) => rule.action);
      expect(actions).toEqual(['allow', 'skip', 'skip', 'log']);
    });
  });

  describe('adding', () => {
    it('creates the entrypoint with the first rule, then appends; each answer is the whole list', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      ctx.sandbox.control.resetCalls();
      const first = await add(alice, zoneId, newRule('First', 'http.request.uri.path contains "/admin"'));
      expect(first.statusCode).toBe(201);
      expect(ctx.sandbox.control.callCount({ method: 'PUT', path: ENTRYPOINT })).toBe(1);
      const [created] = ctx.sandbox.control.getRules(zoneId);
      expect(first.json()).toEqual({
        result: [
          {
            id: created!.id,
            description: 'First',
            action: 'block',
            paused: false,
            priority: 1,
            filter: { id: created!.id, expression: 'http.request.uri.path contains "/admin"', paused: false },
          },
        ],
      });

      const second = await add(
        alice,
        zoneId,
        newRule('Second', 'ip.geoip.country in {"CN" "RU"}', 'challenge'),
      );
      expect(second.statusCode).toBe(201);
      expect(ctx.sandbox.control.callCount({ method: 'POST', path: /\/rulesets\/[^/]+\/rules$/ })).toBe(1);
      expect(second.json().result.map((rule: FirewallRule) => [rule.description, rule.priority])).toEqual([
        ['First', 1],
        ['Second', 2],
      ]);
    });

    it('stores allow as a skip of the remaining custom rules and skip as a skip of later phases', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      await add(alice, zoneId, newRule('Office', 'ip.src in {198.51.100.0/24}', 'allow'));
      const response = await add(
        alice,
        zoneId,
        newRule('Monitor', 'http.request.uri.path eq "/health"', 'skip'),
      );
      expect(response.json().result.map((rule: FirewallRule) => rule.action)).toEqual(['allow', 'skip']);
      const [allow, skip] = ctx.sandbox.control.getRules(zoneId);
      expect(allow).toMatchObject({ action: 'skip', action_parameters: { ruleset: 'current' } });
      expect(skip).toMatchObject({
        action: 'skip',
        action_parameters: {
          phases: ['http_ratelimit', 'http_request_firewall_managed', 'http_request_sbfm'],
        },
      });
    });

    it.each([0, 2])(
      'adds a rule once when Cloudflare applied it but the answer was lost (%i rules before)',
      async (before) => {
        const { zoneId } = await addOwnedZone(ctx, alice);
        await addRules(alice, zoneId, before);
        network.lose(1);
        const response = await add(alice, zoneId, newRule('Lost answer', 'http.request.uri.path eq "/lost"'));
        network.lose(0);
        expect(response.statusCode).toBe(201);
        expect(
          response.json().result.filter((rule: FirewallRule) => rule.description === 'Lost answer'),
        ).toHaveLength(1);
        expect(
          ctx.sandbox.control.getRules(zoneId).filter((rule) => rule.description === 'Lost answer'),
        ).toHaveLength(1);
      },
    );

    it.each([
      // Issue 18: both were saved as Active rules.
      ['ip.src eq', "Expected a value after 'eq' at character 10."],
      ['ip.src ==== 1', "Expected a value after '==' instead of '==' at character 10."],
      ['http.request.uri.pth eq "/x"', "Unknown field 'http.request.uri.pth' at character 1."],
      [
        'ip.src equals 192.0.2.1',
        "Expected an operator such as 'eq', 'contains' or 'in' after 'ip.src' at character 8.",
      ],
      ['(ip.src eq 192.0.2.1', "This '(' is never closed at character 1."],
      [
        'ip.src eq 192.0.2.1)',
        "Expected 'and', 'or' or the end of the expression instead of ')' at character 20.",
      ],
      ['http.host eq "example.com', 'This string is never closed at character 14.'],
      ['ip.src = 192.0.2.1', "'=' is not an operator: use 'eq' or '==' at character 8."],
      ['lowercase(http.host) eq "a"', "Unknown function 'lowercase' at character 1."],
    ])(
      'refuses %j before it reaches Cloudflare, marking the expression field',
      async (expression, message) => {
        const { zoneId } = await addOwnedZone(ctx, alice);
        ctx.sandbox.control.resetCalls();
        const response = await add(alice, zoneId, newRule('Bad', expression));
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          message,
          errors: [{ message, field: 'filter.expression' }],
        });
        expect(writesTo(zoneId)).toBe(0);
        expect(ctx.sandbox.control.getRules(zoneId)).toEqual([]);
      },
    );

    it("shows Cloudflare's own refusal of an expression", async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const response = await add(alice, zoneId, newRule('Missing list', 'ip.src in $no_such_list'));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(
        /^Filter parsing error \(1:\d+\):[\s\S]*could not find list \$no_such_list/,
      );
    });

    it.each([
      [[], 'Send a list holding exactly one new rule.'],
      [[{ action: 'block', filter: { expression: 'cf.client.bot' } }], 'Description is required.'],
      [[{ description: 'x', action: 'block', filter: { expression: '  ' } }], 'Expression is required.'],
      [
        [{ description: 'x', action: 'bypass', filter: { expression: 'cf.client.bot' } }],
        'Action must be one of',
      ],
      [{ description: 'x', filter: { expression: 'cf.client.bot' } }, 'Send a list holding the new rule.'],
    ])('answers 400 for the body %j', async (payload, message) => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const response = await ctx.app.inject({
        method: 'POST',
        url: url(zoneId),
        headers: alice.headers,
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
    });

    it("answers Cloudflare's plan limit: 5 custom rules on a Free plan", async () => {
      const { zoneId } = await addOwnedZone(ctx, alice, 'free');
      await addRules(alice, zoneId, 5);
      const sixth = await add(alice, zoneId, newRule('Sixth', 'cf.client.bot'));
      expect(sixth.statusCode).toBe(400);
      expect(sixth.json().message).toContain('exceeded the maximum number of rules');
      expect(ctx.sandbox.control.getRules(zoneId)).toHaveLength(5);
    });
  });

  describe('editing and pausing', () => {
    it('pauses and resumes a rule with the full rule, paused flipped, keeping its place', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rules = await addRules(alice, zoneId, 3);
      const target = rules[1]!;
      const paused = await update(alice, zoneId, target.id, { ...target, paused: true });
      expect(paused.statusCode).toBe(200);
      expect(paused.json()).toEqual({ ...target, paused: true, filter: { ...target.filter, paused: true } });
      expect(ctx.sandbox.control.getRules(zoneId)[1]).toMatchObject({ id: target.id, enabled: false });

      const resumed = await update(alice, zoneId, target.id, { ...paused.json(), paused: false });
      expect(resumed.json().paused).toBe(false);
      expect(ctx.sandbox.control.getRules(zoneId).map((rule) => rule.enabled)).toEqual([true, true, true]);
    });

    it('edits description, expression and action in place with one PATCH', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [, second] = await addRules(alice, zoneId, 2);
      ctx.sandbox.control.resetCalls();
      const response = await update(alice, zoneId, second!.id, {
        ...second,
        description: 'Allow partners',
        action: 'allow',
        filter: { ...second!.filter, expression: 'ip.src in {203.0.113.0/24}' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: second!.id,
        priority: 2,
        action: 'allow',
        description: 'Allow partners',
      });
      expect(ctx.sandbox.control.callCount({ method: 'PATCH' })).toBe(1);
      expect(ctx.sandbox.control.getRules(zoneId)[1]).toMatchObject({
        id: second!.id,
        action: 'skip',
        action_parameters: { ruleset: 'current' },
        expression: 'ip.src in {203.0.113.0/24}',
      });

      const back = await update(alice, zoneId, second!.id, { ...response.json(), action: 'js_challenge' });
      expect(back.json().action).toBe('js_challenge');
      expect(ctx.sandbox.control.getRules(zoneId)[1]).not.toHaveProperty('action_parameters');
    });

    it("keeps what the console does not show: a block's custom response, the ref, logging", async () => {
      const { zoneId, token } = await addOwnedZone(ctx, alice);
      const response = { status_code: 403, content: 'Go away', content_type: 'text/plain' };
      await seedAtCloudflare(token, zoneId, [
        {
          description: 'Custom',
          expression: 'cf.client.bot',
          action: 'block',
          ref: 'my-ref',
          action_parameters: { response },
        },
      ]);
      const [rule] = (await list(alice, zoneId)).json() as FirewallRule[];
      await update(alice, zoneId, rule!.id, { ...rule, paused: true, description: 'Custom, paused' });
      expect(ctx.sandbox.control.getRules(zoneId)[0]).toMatchObject({
        ref: 'my-ref',
        enabled: false,
        description: 'Custom, paused',
        action_parameters: { response },
      });
    });

    it('refuses a bad expression on edit and leaves the rule as it was', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [rule] = await addRules(alice, zoneId, 1);
      const response = await update(alice, zoneId, rule!.id, {
        ...rule,
        filter: { expression: 'http.hots eq "a"' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: "Unknown field 'http.hots' at character 1.",
        errors: [{ field: 'filter.expression' }],
      });
      expect(ctx.sandbox.control.getRules(zoneId)[0]!.expression).toBe(rule!.filter.expression);
    });
  });

  describe('reordering', () => {
    it('saves the whole new order as one ruleset write, keeping ids and definitions', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rules = await addRules(alice, zoneId, 4);
      const before = ctx.sandbox.control.getRules(zoneId);
      // The browser's move of rule 4 to the top, priorities renumbered from 1.
      const moved = [rules[3]!, rules[0]!, rules[1]!, rules[2]!].map((rule, index) => ({
        ...rule,
        priority: index + 1,
      }));
      ctx.sandbox.control.resetCalls();

      const response = await reorder(alice, zoneId, moved);
      expect(response.statusCode).toBe(200);
      expect(response.json().result.map((rule: FirewallRule) => [rule.id, rule.priority])).toEqual(
        moved.map((rule) => [rule.id, rule.priority]),
      );
      expect(writesTo(zoneId)).toBe(1);
      expect(ctx.sandbox.control.callCount({ method: 'PUT', path: ENTRYPOINT })).toBe(1);
      const after = ctx.sandbox.control.getRules(zoneId);
      expect(after.map((rule) => rule.id)).toEqual(moved.map((rule) => rule.id));
      for (const rule of after) {
        const old = before.find((candidate) => candidate.id === rule.id)!;
        expect({ ...rule, last_updated: null }).toEqual({ ...old, last_updated: null });
      }
    });

    it('takes only the order: stale rule contents in the request change nothing else', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [a, b] = await addRules(alice, zoneId, 2);
      const response = await reorder(alice, zoneId, [
        { ...b, priority: 1, description: 'tampered', paused: true },
        { ...a, priority: 2 },
      ]);
      expect(response.json().result.map((rule: FirewallRule) => [rule.description, rule.paused])).toEqual([
        ['Rule 2', false],
        ['Rule 1', false],
      ]);
    });

    it('writes nothing when the order is unchanged', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rules = await addRules(alice, zoneId, 2);
      ctx.sandbox.control.resetCalls();
      expect((await reorder(alice, zoneId, rules)).statusCode).toBe(200);
      expect(writesTo(zoneId)).toBe(0);
    });

    it('leaves the old order at Cloudflare when the write fails (all retries of the one write)', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rules = await addRules(alice, zoneId, 3);
      const before = ctx.sandbox.control.getRules(zoneId).map((rule) => rule.id);
      ctx.sandbox.control.resetCalls();
      ctx.sandbox.control.injectFault({ path: ENTRYPOINT, method: 'PUT', status: 503 });

      const reversed = [...rules].reverse().map((rule, index) => ({ ...rule, priority: index + 1 }));
      const response = await reorder(alice, zoneId, reversed);
      expect(response.statusCode).toBe(502);
      // Read back once, the old order tells the person it was not saved (issue 41).
      expect(response.json().message).toBe(
        "Cloudflare's answer was lost; Guardian checked: the new order was not saved. Please try again.",
      );
      expect(ctx.sandbox.control.getRules(zoneId).map((rule) => rule.id)).toEqual(before);
      // One write, sent again only by the SDK's retries (maxRetries 2 in tests); never per-rule calls.
      expect(ctx.sandbox.control.callCount({ method: 'PUT', path: ENTRYPOINT })).toBe(3);
      expect(writesTo(zoneId)).toBe(3);
    });

    it('sends a refused reorder once and keeps the old order (rate limited past what a person waits)', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rules = await addRules(alice, zoneId, 2);
      const before = ctx.sandbox.control.getRules(zoneId).map((rule) => rule.id);
      ctx.sandbox.control.resetCalls();
      ctx.sandbox.control.injectFault({
        path: ENTRYPOINT,
        method: 'PUT',
        status: 429,
        retryAfterSeconds: 60,
        times: 1,
      });
      const response = await reorder(alice, zoneId, [
        { ...rules[1]!, priority: 1 },
        { ...rules[0]!, priority: 2 },
      ]);
      expect(response.statusCode).toBe(429);
      expect(writesTo(zoneId)).toBe(1);
      expect(ctx.sandbox.control.getRules(zoneId).map((rule) => rule.id)).toEqual(before);
    });

    it('answers 409 when the list no longer matches the zone’s rules', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const rules = await addRules(alice, zoneId, 2);
      const missingOne = await reorder(alice, zoneId, [{ ...rules[0]!, priority: 1 }]);
      expect(missingOne.statusCode).toBe(409);
      const unknown = await reorder(alice, zoneId, [
        { ...rules[0]!, priority: 1 },
        { ...rules[1]!, id: 'not-a-rule', priority: 2 },
      ]);
      expect(unknown.statusCode).toBe(409);
      expect(unknown.json().message).toBe(
        'The firewall rules changed since they were loaded. Reload the list and try again.',
      );
    });

    it('answers 400 for a list naming a rule twice or without priorities', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [rule] = await addRules(alice, zoneId, 1);
      expect((await reorder(alice, zoneId, [rule!, rule!])).json().message).toContain('A rule appears twice');
      expect((await reorder(alice, zoneId, [{ id: rule!.id }])).statusCode).toBe(400);
    });
  });

  describe('a change whose answer was lost (issue 41)', () => {
    it('answers an edit Cloudflare applied though every answer to it was lost, saying Guardian checked', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [rule] = await addRules(alice, zoneId, 1);
      network.lose(10);
      const response = await update(alice, zoneId, rule!.id, {
        ...rule,
        description: 'Renamed',
        paused: true,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: rule!.id, description: 'Renamed', paused: true });
      expect(response.headers[OUTCOME_HEADER]).toBe(checked('the rule was updated'));
      expect(ctx.sandbox.control.getRules(zoneId)).toMatchObject([
        { description: 'Renamed', enabled: false },
      ]);
    });

    it('says an edit was not saved when Cloudflare failed every attempt', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [rule] = await addRules(alice, zoneId, 1);
      ctx.sandbox.control.injectFault({ method: 'PATCH', path: `/zones/${zoneId}/rulesets`, status: 503 });
      const response = await update(alice, zoneId, rule!.id, { ...rule, description: 'Renamed' });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(`${checked('the rule was not updated')} Please try again.`);
      expect(ctx.sandbox.control.getRules(zoneId)).toMatchObject([{ description: 'Rule 1' }]);
    });

    it('answers a new order Cloudflare saved though every answer to it was lost, saying Guardian checked', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [a, b] = await addRules(alice, zoneId, 2);
      network.lose(10);
      const response = await reorder(alice, zoneId, [
        { ...b!, priority: 1 },
        { ...a!, priority: 2 },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().result.map((rule: FirewallRule) => rule.id)).toEqual([b!.id, a!.id]);
      expect(response.headers[OUTCOME_HEADER]).toBe(checked('the new order was saved'));
      expect(ctx.sandbox.control.getRules(zoneId).map((rule) => rule.id)).toEqual([b!.id, a!.id]);
    });

    it('says Guardian could not check a new order when the rules cannot be read back either', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [a, b] = await addRules(alice, zoneId, 2);
      network.lose(10, { failReads: true });
      const response = await reorder(alice, zoneId, [
        { ...b!, priority: 1 },
        { ...a!, priority: 2 },
      ]);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(
        "Cloudflare's answer was lost, and Guardian could not check whether the new order was saved. Reload the page to see what Cloudflare has before trying again.",
      );
    });

    it('says a delete was not done when Cloudflare failed every attempt and still has the rule', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [rule] = await addRules(alice, zoneId, 1);
      ctx.sandbox.control.injectFault({ method: 'DELETE', path: `/zones/${zoneId}/rulesets`, status: 503 });
      const response = await remove(alice, zoneId, rule!.id, rule!.filter.id);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(`${checked('the rule was not deleted')} Please try again.`);
      expect(ctx.sandbox.control.getRules(zoneId)).toHaveLength(1);
    });
  });

  describe('deleting', () => {
    it('deletes a rule given its filter id', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [first, second] = await addRules(alice, zoneId, 2);
      const response = await remove(alice, zoneId, first!.id, first!.filter.id);
      expect(response.statusCode).toBe(204);
      expect(ctx.sandbox.control.getRules(zoneId).map((rule) => rule.id)).toEqual([second!.id]);
      expect((await list(alice, zoneId)).json()).toEqual([{ ...second, priority: 1 }]);
    });

    it('answers a delete done when Cloudflare applied it but the answer was lost', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [first, second] = await addRules(alice, zoneId, 2);
      network.lose(1);
      const response = await remove(alice, zoneId, first!.id, first!.filter.id);
      network.lose(0);
      expect(response.statusCode).toBe(204);
      expect(response.headers[OUTCOME_HEADER]).toBe(checked('the rule was deleted'));
      expect(ctx.sandbox.control.getRules(zoneId).map((rule) => rule.id)).toEqual([second!.id]);
    });

    it('refuses a missing or foreign filter id without touching Cloudflare', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [first, second] = await addRules(alice, zoneId, 2);
      ctx.sandbox.control.resetCalls();
      const missing = await remove(alice, zoneId, first!.id);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toContain('filter_id');
      const foreign = await remove(alice, zoneId, first!.id, second!.filter.id);
      expect(foreign.statusCode).toBe(400);
      expect(writesTo(zoneId)).toBe(0);
      expect(ctx.sandbox.control.getRules(zoneId)).toHaveLength(2);
    });
  });

  describe('ownership', () => {
    it("answers 404 for another user's zone on every call, and changes nothing there", async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const [rule] = await addRules(alice, zoneId, 1);
      const answers = [
        await list(bob, zoneId),
        await add(bob, zoneId, newRule('x', 'cf.client.bot')),
        await reorder(bob, zoneId, [rule!]),
        await update(bob, zoneId, rule!.id, { ...rule, paused: true }),
        await remove(bob, zoneId, rule!.id, rule!.id),
      ];
      for (const answer of answers) {
        expect(answer.statusCode).toBe(404);
        expect(answer.json().message).toBe('Zone not found.');
      }
      expect(ctx.sandbox.control.getRules(zoneId)).toMatchObject([{ id: rule!.id, enabled: true }]);
    });

    it('answers 404 for a rule id that is not in the zone (also one of another zone)', async () => {
      const { zoneId } = await addOwnedZone(ctx, alice);
      const other = await addOwnedZone(ctx, alice);
      await addRules(alice, zoneId, 1);
      const [otherRule] = await addRules(alice, other.zoneId, 1);
      for (const ruleId of ['0123456789abcdef0123456789abcdef', otherRule!.id]) {
        const edited = await update(alice, zoneId, ruleId, newRule('x', 'cf.client.bot'));
        expect(edited.statusCode).toBe(404);
        expect(edited.json().message).toBe('Firewall rule not found.');
        expect((await remove(alice, zoneId, ruleId, ruleId)).statusCode).toBe(404);
      }
      const empty = await addOwnedZone(ctx, alice);
      expect(
        (await update(alice, empty.zoneId, otherRule!.id, newRule('x', 'cf.client.bot'))).statusCode,
      ).toBe(404);
      expect(ctx.sandbox.control.getRules(other.zoneId)).toHaveLength(1);
    });
  });

  it('never calls the retired Firewall Rules or Filters APIs', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    ctx.sandbox.control.resetCalls();
    await list(alice, zoneId);
    const [a, b] = await addRules(alice, zoneId, 2);
    await update(alice, zoneId, a!.id, { ...a, paused: true });
    await reorder(alice, zoneId, [
      { ...b!, priority: 1 },
      { ...a!, priority: 2 },
    ]);
    await remove(alice, zoneId, a!.id, a!.filter.id);
    expect(ctx.sandbox.control.callCount({ path: new RegExp(`/zones/${zoneId}/`) })).toBeGreaterThan(5);
    expect(ctx.sandbox.control.callCount({ path: /\/firewall\/rules|\/filters/ })).toBe(0);
  });
  it('tells what the rules that use a ban list say it is for, until the person says (issue 35 item 9)', async () => {
    const carol = await ctx.createUser();
    const { zoneId, accountId } = await addOwnedZone(ctx, carol);
    const accountName = (
      await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/accounts', headers: carol.headers })
    )
      .json<{ account_name: string; account_id: string }[]>()
      .find((a) => a.account_id === accountId)!.account_name;
    // A name that says nothing of its purpose.
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/banlists',
      headers: carol.headers,
      payload: { account_name: accountName, list_name: 'partners', kind: 'ip' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const partners = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/banlists', headers: carol.headers }))
        .json<
          { list_name: string; account_id: string; purpose: string | null; purpose_source: string | null }[]
        >()
        .find((list) => list.list_name === 'partners' && list.account_id === accountId)!;
    expect(await partners()).toMatchObject({ purpose: null, purpose_source: null });

    // A rule lets the list's addresses through: once the rules are read, the list is an allowlist.
    expect(
      (await add(carol, zoneId, newRule('Partners pass', 'ip.src in $partners', 'allow'))).statusCode,
    ).toBe(201);
    expect((await list(carol, zoneId)).statusCode).toBe(200);
    expect(await partners()).toMatchObject({ purpose: 'allow', purpose_source: 'rules' });

    // Another rule blocks them: the rules disagree, so they say nothing.
    expect(
      (await add(carol, zoneId, newRule('Partners out', '(ip.src in $partners)', 'block'))).statusCode,
    ).toBe(201);
    await list(carol, zoneId);
    expect(await partners()).toMatchObject({ purpose: null, purpose_source: null });
  });
});
