import {
  planEndpoints,
  serverApiEndpoints,
  serverEndpoints,
  userEndpoints,
  type BanList,
  type CreatedServer,
  type OwnPlan,
  type Plan,
  type PlanFields,
  type ServerGroup,
  type User,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { requestTo, type EndpointInput } from '../../test/request';

/** Plans (issue 38): administrators' plans, and each create route refused at the person's limit. */
describe('plans', () => {
  let ctx: CloudflareTestContext;
  let admin: TestUser;
  let alice: TestUser;

  const as = (user: TestUser, endpoint: Parameters<typeof requestTo>[0], input: EndpointInput = {}) =>
    ctx.app.inject({ ...requestTo(endpoint, input), headers: user.headers });
  const post = (user: TestUser, url: string, payload: object = {}) =>
    ctx.app.inject({ method: 'POST', url, headers: user.headers, payload });
  /** Every call Guardian made to Cloudflare so far. */
  const cloudflareCalls = () => ctx.sandbox.control.callLog({}).length;

  const roomy: PlanFields = {
    name: 'Roomy',
    accounts: 10,
    zones: 10,
    lists: 10,
    list_items: 100,
    api_keys: 10,
    servers: 10,
    templates: 0,
    report_range: '30d',
  };
  async function createPlan(fields: Partial<PlanFields>): Promise<Plan> {
    const answer = await as(admin, planEndpoints.create, { payload: { ...roomy, ...fields } });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<Plan>();
  }
  async function give(user: TestUser, plan: Plan) {
    const answer = await as(admin, userEndpoints.setPlan, {
      params: { id: user.id },
      payload: { plan_id: plan.id },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<User>();
  }
  /** A fresh person on a plan of their own with `fields`, and one Cloudflare account (added first). */
  async function personOn(fields: Partial<PlanFields>) {
    const person = await ctx.createUser();
    const owned = await ctx.addAccount(person, { name: `Acct ${person.id}` });
    await give(person, await createPlan({ name: `Plan of ${person.id}`, ...fields }));
    return { person, owned };
  }
  function expectRefusal(answer: { statusCode: number; body: string }, message: string) {
    expect(answer.statusCode, answer.body).toBe(403);
    expect(JSON.parse(answer.body).message).toBe(message);
  }

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
    admin = await ctx.createUser({ level: 0 });
    alice = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('everyone starts on the default plan, Standard; administrators create, change, make default and delete plans', async () => {
    const plans = (await as(admin, planEndpoints.list)).json<Plan[]>();
    expect(plans).toEqual([
      expect.objectContaining({ name: 'Standard', is_default: true, accounts: 100, report_range: '30d' }),
    ]);
    expect(plans[0]!.users).toBeGreaterThanOrEqual(2);
    const [row] = await ctx.db.query<{ plan_id: number }>('SELECT plan_id FROM users WHERE id = $1', [
      alice.id,
    ]);
    expect(row!.plan_id).toBe(plans[0]!.id);

    const small = await createPlan({ name: 'Small', accounts: 2 });
    expect(small).toMatchObject({ name: 'Small', accounts: 2, is_default: false, users: 0 });
    const twice = await as(admin, planEndpoints.create, { payload: { ...roomy, name: 'small' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('There is already a plan named "small".');
    const bad = await as(admin, planEndpoints.create, { payload: { ...roomy, name: 'Bad', zones: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Zones must be a whole number from 0 to 100,000,000.');

    const changed = await as(admin, planEndpoints.update, {
      params: { id: small.id },
      payload: { ...roomy, name: 'Small', accounts: 3 },
    });
    expect(changed.json<Plan>()).toMatchObject({ accounts: 3 });
    expect(
      (await as(admin, planEndpoints.update, { params: { id: 999_999 }, payload: roomy })).statusCode,
    ).toBe(404);

    // A new person gets the default plan, whichever it is.
    expect(
      (await as(admin, planEndpoints.makeDefault, { params: { id: small.id } })).json<Plan>().is_default,
    ).toBe(true);
    const newcomer = await as(admin, userEndpoints.create, {
      payload: { email: 'newcomer@example.com', level: 1, password_setup: { method: 'link' } },
    });
    expect(newcomer.json<{ user: User }>().user.plan_id).toBe(small.id);
    const defaults = (await as(admin, planEndpoints.list)).json<Plan[]>().filter((plan) => plan.is_default);
    expect(defaults.map((plan) => plan.name)).toEqual(['Small']);

    // In use, or the default: not deleted, and the refusal says why.
    const inUse = await as(admin, planEndpoints.remove, { params: { id: small.id } });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe('"Small" is the default plan: make another plan the default first.');
    await as(admin, planEndpoints.makeDefault, { params: { id: plans[0]!.id } });
    const used = await as(admin, planEndpoints.remove, { params: { id: small.id } });
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe(
      '"Small" is in use by newcomer@example.com: give them another plan first.',
    );
    await as(admin, userEndpoints.remove, { params: { id: newcomer.json<{ user: User }>().user.id } });
    expect((await as(admin, planEndpoints.remove, { params: { id: small.id } })).statusCode).toBe(204);

    // Assigning: an unknown plan or person is not found.
    const noPlan = await as(admin, userEndpoints.setPlan, {
      params: { id: alice.id },
      payload: { plan_id: 999_999 },
    });
    expect(noPlan.statusCode).toBe(404);
    expect(noPlan.json().message).toBe('Plan not found.');
    const noUser = await as(admin, userEndpoints.setPlan, {
      params: { id: 999_999 },
      payload: { plan_id: plans[0]!.id },
    });
    expect(noUser.json().message).toBe('User not found.');
    // Only administrators.
    expect((await as(alice, planEndpoints.create, { payload: roomy })).statusCode).toBe(403);
  });

  it('refuses a second Cloudflare account on a 1-account plan, naming the limit, before asking Cloudflare', async () => {
    const { person } = await personOn({ accounts: 1 });
    const before = cloudflareCalls();
    const token = 'plan-token-second';
    const second = ctx.sandbox.control.addAccount({ name: 'Second', plan: 'enterprise' });
    ctx.sandbox.control.addToken({ value: token, accountIds: [second.id] });
    const refused = await post(person, '/api/cloudflare/accounts', { account_name: 'Second', token });
    expectRefusal(refused, 'Your plan allows 1 Cloudflare account.');
    expect(cloudflareCalls()).toBe(before);
  });

  it('two adds at once on a 1-account plan: one is added, the other refused', async () => {
    const person = await ctx.createUser();
    await give(person, await createPlan({ name: 'One account', accounts: 1 }));
    const tokens = ['race-a', 'race-b'].map((value) => {
      const added = ctx.sandbox.control.addAccount({ name: value, plan: 'enterprise' });
      ctx.sandbox.control.addToken({ value, accountIds: [added.id] });
      return value;
    });
    const answers = await Promise.all(
      tokens.map((token) => post(person, '/api/cloudflare/accounts', { account_name: token, token })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 403]);
    const [row] = await ctx.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM cloudflare_accounts WHERE user_id = $1',
      [person.id],
    );
    expect(row!.count).toBe(1);
  });

  it('refuses a list, a zone, list items (added, imported, banned by a server), an API key and a server at the limit', async () => {
    const { person, owned } = await personOn({ lists: 1, zones: 0, list_items: 1, api_keys: 1, servers: 1 });
    const list = await post(person, '/api/cloudflare/banlists', {
      account_name: owned.account_name,
      list_name: 'first',
      kind: 'ip',
    });
    expect(list.statusCode, list.body).toBe(201);
    const listId = list.json<BanList>().list_id;

    let before = cloudflareCalls();
    expectRefusal(
      await post(person, '/api/cloudflare/banlists', {
        account_name: owned.account_name,
        list_name: 'second',
        kind: 'ip',
      }),
      'Your plan allows 1 list.',
    );
    expectRefusal(
      await post(person, '/api/cloudflare/zones', {
        account_id: owned.account_id,
        domain: 'refused.example',
      }),
      'Your plan allows 0 zones.',
    );
    expect(cloudflareCalls()).toBe(before);

    const item = await post(person, `/api/cloudflare/banlists/${listId}/items`, {
      ip: '192.0.2.1',
      comment: 'first',
    });
    expect(item.statusCode, item.body).toBe(201);
    before = cloudflareCalls();
    expectRefusal(
      await post(person, `/api/cloudflare/banlists/${listId}/items`, { ip: '192.0.2.2', comment: 'second' }),
      'Your plan allows 1 list item.',
    );
    const preview = await post(person, `/api/cloudflare/banlists/${listId}/items/import/preview`, {
      text: '192.0.2.3\n192.0.2.4\n',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expectRefusal(
      await post(
        person,
        `/api/cloudflare/banlists/${listId}/items/import/${preview.json<{ id: string }>().id}`,
      ),
      'Your plan allows 1 list item.',
    );
    const writes = ctx.sandbox.control
      .callLog({ path: /\/items$/ })
      .filter((entry) => entry.method !== 'GET');
    expect(writes.length).toBe(1);

    const key = await as(
      person,
      { method: 'POST', path: '/api/me/api-keys' },
      { payload: { name: 'one', access: 'ban' } },
    );
    expect(key.statusCode, key.body).toBe(201);
    expectRefusal(
      await as(
        person,
        { method: 'POST', path: '/api/me/api-keys' },
        { payload: { name: 'two', access: 'ban' } },
      ),
      'Your plan allows 1 API key.',
    );

    const group = await as(person, serverEndpoints.groupCreate, {
      payload: { name: 'Web', list_ids: [listId] },
    });
    expect(group.statusCode, group.body).toBe(201);
    const groupId = group.json<ServerGroup>().id;
    const first = await as(person, serverEndpoints.create, {
      payload: { name: 'web-1', group_id: groupId, integration: 'fail2ban' },
    });
    expect(first.statusCode, first.body).toBe(201);
    expectRefusal(
      await as(person, serverEndpoints.create, {
        payload: { name: 'web-2', group_id: groupId, integration: 'fail2ban' },
      }),
      'Your plan allows 1 server.',
    );
    // A server's ban adds an item to each list of its group: refused too, and nothing is queued.
    const ban = await ctx.app.inject({
      ...requestTo(serverApiEndpoints.ban, { payload: { address: '203.0.113.9' } }),
      headers: { authorization: `Bearer ${first.json<CreatedServer>().key}` },
    });
    expectRefusal(ban, 'Your plan allows 1 list item.');
    const [pending] = await ctx.db.query<{ count: number }>('SELECT count(*)::int AS count FROM server_bans');
    expect(pending!.count).toBe(0);
    expect(cloudflareCalls()).toBe(before);

    // The person's use against the plan.
    const own = (await as(person, planEndpoints.own)).json<OwnPlan>();
    expect(own.name).toBe(`Plan of ${person.id}`);
    expect(own.use).toEqual([
      { limit: 'accounts', allowed: 10, used: 1 },
      { limit: 'zones', allowed: 0, used: 0 },
      { limit: 'lists', allowed: 1, used: 1 },
      { limit: 'list_items', allowed: 1, used: 1 },
      { limit: 'api_keys', allowed: 1, used: 1 },
      { limit: 'servers', allowed: 1, used: 1 },
      { limit: 'templates', allowed: 0, used: 0 },
    ]);
  });

  it("refuses a report range wider than the plan's", async () => {
    const { person } = await personOn({ report_range: '24h' });
    for (const report of ['security', 'traffic', 'errors']) {
      expectRefusal(
        await ctx.app.inject({
          method: 'GET',
          url: `/api/reports/${report}?range=7d`,
          headers: person.headers,
        }),
        "Your plan's reports reach back 24 hours.",
      );
    }
  });
});
