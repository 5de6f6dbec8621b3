import {
  auditEndpoints,
  banListEndpoints,
  firewallRuleEndpoints,
  pageRuleEndpoints,
  zoneEndpoints,
} from '@guardian/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathParams, routesBreakingOwnership, type RouteEntry } from '../route-table';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import { requestTo } from '../test/request';
import {
  apiRoutes,
  errorCodeOf,
  idForms,
  ownerOrder,
  paramKind,
  routeName,
  sampleRequest,
  seedEstate,
  sendSample,
  urlsFor,
  worldFingerprint,
  type Estate,
  ROUTE_WALK_TIMEOUT_MS,
} from '../test/security';

/**
 * Cross-user authorisation over the whole route table. Alice and Mallory each have an estate (an
 * account with a list, items, a zone, a DNS record, firewall rules and a page rule). Every route with a
 * path param is called by Mallory with Alice's ids, in every form an id may take (Guardian's row id
 * and Cloudflare's id), with a valid body, and must answer 404 and change nothing: not the database,
 * not Cloudflare, and not a single call made with Alice's token. Mixed paths (Mallory's own list with
 * Alice's item) are tried too. A positive control then proves each route was really exercised: Alice
 * herself, with the same URLs, succeeds. A route added later is walked the same way; if
 * test/security.ts cannot build its request, the test fails until it is taught.
 */

let ctx: CloudflareTestContext;
let alice: Estate;
let mallory: Estate;

/**
 * Routes taking ids that must be the caller's own. Administrators' routes reach anyone's by design
 * (a person's two-factor reset): headers-admin.test.ts keeps them to level 0. The server API's signed
 * webhook takes no person at all: its server's signature is its owner's proof (servers.test.ts).
 */
const withParams = (routes: RouteEntry[]) =>
  routes.filter(
    (route) => pathParams(route.url).length > 0 && route.access !== 'admin' && route.access !== 'server',
  );

beforeAll(async () => {
  ctx = await createCloudflareTestContext({
    setup(app) {
      const byId = (id: string) =>
        ctx.db.query('SELECT id, account_name FROM cloudflare_accounts WHERE id::text = $1', [id]);
      app.get('/api/cloudflare/accounts/:id/selftest-leak', { config: { owns: ['id'] } }, async (request) =>
        byId((request.params as { id: string }).id),
      );
      app.post(
        '/api/cloudflare/accounts/:id/selftest-write',
        { config: { owns: ['id'] } },
        async (request) => {
          await ctx.db.query(
            "UPDATE cloudflare_accounts SET account_name = account_name || '!' WHERE id::text = $1",
            [(request.params as { id: string }).id],
          );
          return byId((request.params as { id: string }).id);
        },
      );
    },
  });
  alice = await seedEstate(ctx, await ctx.createUser(), 'alice');
  mallory = await seedEstate(ctx, await ctx.createUser(), 'mallory');
});
afterAll(() => ctx?.close());

/** Two deliberately broken routes: they find an account by id alone, for anyone. */
const isSelfTest = (route: RouteEntry) => route.url.includes('/selftest-');

async function crossUserFailures(routes: RouteEntry[]): Promise<string[]> {
  const failures: string[] = [];
  const aliceCalls = () => ctx.sandbox.control.callCount({ token: alice.token });
  for (const route of routes) {
    // The body is Alice's own valid request: only the caller is wrong.
    const sample = await sampleRequest(ctx, route, alice);
    const params = pathParams(route.url);
    // The first id Mallory's own, the rest Alice's: a child must be checked against its parent. An id
    // numbered per parent (item 1 of each list) that Mallory's parent also has names her own child
    // there, so that form is left out.
    const mixed: string[] = [];
    if (params.length > 1) {
      let partial = [route.url];
      params.forEach((param, index) => {
        const kind = paramKind(route.url, param);
        const forms =
          index === 0
            ? idForms(mallory, kind)
            : idForms(alice, kind).filter((form) => !idForms(mallory, kind).includes(form));
        partial = partial.flatMap((url) =>
          forms.map((form) => url.replace(`:${param}`, encodeURIComponent(form))),
        );
      });
      mixed.push(...partial);
    }
    const urls = [...urlsFor(route, alice), ...mixed];
    let refusedAsNotFound = 0;
    for (const url of urls) {
      const before = await worldFingerprint(ctx);
      const callsBefore = aliceCalls();
      const response = await sendSample(ctx, route, url, mallory.user.headers, sample);
      const code = errorCodeOf(response);
      const label = `${routeName(route)} as ${url}`;
      if (response.statusCode === 404 && code === 'NOT_FOUND') {
        refusedAsNotFound += 1;
      } else if (!(response.statusCode === 400 && code !== undefined)) {
        failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      }
      const after = await worldFingerprint(ctx);
      if (JSON.stringify(after.db) !== JSON.stringify(before.db))
        failures.push(`${label}: the database changed`);
      if (after.sandbox !== before.sandbox) failures.push(`${label}: Cloudflare's state changed`);
      if (aliceCalls() !== callsBefore) failures.push(`${label}: a call was made with Alice's token`);
      if (response.statusCode === 400) {
        // An id in a form this route does not take (a Cloudflare id where it takes Guardian's number):
        // fine only if it is refused as malformed for the owner too, so the answer reveals nothing.
        const own = await sendSample(ctx, route, url, alice.user.headers, sample);
        if (own.statusCode !== 400 || own.body !== response.body) {
          failures.push(
            `${label}: 400 to another user but ${own.statusCode} to the owner (the answer depends on who asks)`,
          );
        }
      }
    }
    if (refusedAsNotFound === 0)
      failures.push(`${routeName(route)}: no form of Alice's ids was answered 404`);
  }
  return failures;
}

describe('ownership of every route that takes an id', () => {
  it('every /api route with path params declares exactly the params it checks', () => {
    expect(routesBreakingOwnership(ctx.app.routeTable)).toEqual([]);
  });

  it('walks every id-taking route of the spec (section 7)', () => {
    const walked = withParams(apiRoutes(ctx.app)).map(routeName);
    expect(walked).toEqual(
      expect.arrayContaining([
        'DELETE /api/cloudflare/banlists/{list}',
        'GET /api/cloudflare/banlists/{list}/items',
        'POST /api/cloudflare/banlists/{list}/items',
        'POST /api/cloudflare/banlists/{list}/sync',
        'DELETE /api/cloudflare/banlists/{list}/items/{item}',
        'DELETE /api/cloudflare/zones/{zone}',
        'GET /api/cloudflare/zones/{zone}/dns',
        'POST /api/cloudflare/zones/{zone}/dns',
        'PUT /api/cloudflare/zones/{zone}/dns/{record}',
        'DELETE /api/cloudflare/zones/{zone}/dns/{record}',
        'GET /api/cloudflare/zones/{zone}/firewall-rules',
        'POST /api/cloudflare/zones/{zone}/firewall-rules',
        'PUT /api/cloudflare/zones/{zone}/firewall-rules',
        'PUT /api/cloudflare/zones/{zone}/firewall-rules/{rule}',
        'DELETE /api/cloudflare/zones/{zone}/firewall-rules/{rule}',
        'GET /api/cloudflare/zones/{zone}/pagerules',
        'POST /api/cloudflare/zones/{zone}/pagerules',
        'PUT /api/cloudflare/zones/{zone}/pagerules/{pageRule}',
        'DELETE /api/cloudflare/zones/{zone}/pagerules/{pageRule}',
      ]),
    );
  });

  it('knows what every path param names', () => {
    for (const route of withParams(apiRoutes(ctx.app))) {
      for (const param of pathParams(route.url)) expect(() => paramKind(route.url, param)).not.toThrow();
    }
  });

  it(
    "answers 404 to another user's ids on every route, and changes nothing at all",
    async () => {
      expect(
        await crossUserFailures(withParams(apiRoutes(ctx.app)).filter((route) => !isSelfTest(route))),
      ).toEqual([]);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it('catches a route that forgets to check ownership (the check above is not vacuous)', async () => {
    const leaky = apiRoutes(ctx.app).filter(isSelfTest);
    expect(leaky).toHaveLength(2);
    const failures = await crossUserFailures(leaky);
    expect(
      failures.some(
        (failure) =>
          failure.includes('GET /api/cloudflare/accounts/{account}/selftest-leak') &&
          failure.includes(': 200'),
      ),
    ).toBe(true);
    expect(
      failures.some(
        (failure) =>
          failure.includes('POST /api/cloudflare/accounts/{account}/selftest-write') &&
          failure.includes('the database changed'),
      ),
    ).toBe(true);
  });

  /** Everything of Alice's: her rows and her Cloudflare account's state. */
  async function aliceSlice(): Promise<string> {
    const rows = await ctx.db.query(
      `SELECT 'account' AS t, a.id::text, a.account_name AS v FROM cloudflare_accounts a WHERE a.user_id = $1
       UNION ALL SELECT 'list', l.id::text, l.list_id || ':' || l.items_count FROM ban_lists l
         JOIN cloudflare_accounts a ON a.id = l.account_ref WHERE a.user_id = $1
       UNION ALL SELECT 'item', i.id::text, i.item_id || ':' || i.ip || ':' || i.comment FROM ban_list_items i
         JOIN ban_lists l ON l.id = i.ban_list_ref JOIN cloudflare_accounts a ON a.id = l.account_ref WHERE a.user_id = $1
       UNION ALL SELECT 'zone', z.id::text, z.zone_id || ':' || z.status FROM zones z
         JOIN cloudflare_accounts a ON a.id = z.account_ref WHERE a.user_id = $1
       ORDER BY 1, 2`,
      [alice.user.id],
    );
    const { control } = ctx.sandbox;
    const zones = control.getZones(alice.cfAccountId);
    return JSON.stringify({
      rows,
      lists: control
        .getLists(alice.cfAccountId)
        .map((list) => ({ list, items: control.getListItems(alice.cfAccountId, list.id) })),
      zones: zones.map((zone) => ({
        zone,
        dns: control.getDnsRecords(zone.id),
        rules: control.getRules(zone.id),
        pageRules: control.getPageRules(zone.id),
      })),
    });
  }

  it(
    "refuses every id of another user's carried in a body or a query, and changes nothing of hers",
    async () => {
      const rulesOf = async (estate: Estate) =>
        (
          await ctx.app.inject({
            ...requestTo(firewallRuleEndpoints.list, { params: { zone_id: estate.zone.zoneId } }),
            headers: estate.user.headers,
          })
        ).json<{ id: string }[]>();
      const aliceRules = await rulesOf(alice);
      const malloryRules = await rulesOf(mallory);
      const malloryZone = { zone_id: mallory.zone.zoneId };
      const pageRule = {
        targets: [
          { target: 'url', constraint: { operator: 'matches', value: `${mallory.zone.domain}/body-ids/*` } },
        ],
        actions: [{ id: 'always_use_https', value: 'on' }],
        priority: 1,
        status: 'active',
      };
      const attempts: (InjectOptions & { url: string; refuse?: boolean })[] = [
        // Alice's Cloudflare account, by her Cloudflare id and by her own name for it.
        {
          ...requestTo(zoneEndpoints.add, {
            payload: { account_id: alice.cfAccountId, domain: 'stolen-zone-example.com' },
          }),
          refuse: true,
        },
        {
          ...requestTo(banListEndpoints.add, {
            payload: { account_name: alice.accountName, list_name: 'stolen_list', kind: 'ip' },
          }),
          refuse: true,
        },
        // Mallory's zone in the path, Alice's rules in the body: a reorder of Alice's list, an edit naming her rule.
        requestTo(firewallRuleEndpoints.reorder, {
          params: malloryZone,
          payload: aliceRules.map((rule, index) => ({ ...rule, priority: aliceRules.length - index })),
        }),
        requestTo(firewallRuleEndpoints.update, {
          params: { ...malloryZone, rule_id: malloryRules[0]!.id },
          payload: { ...aliceRules[0], id: aliceRules[0]!.id, description: 'renamed through a body id' },
        }),
        requestTo(firewallRuleEndpoints.remove, {
          params: { ...malloryZone, rule_id: malloryRules[1]!.id },
          query: { filter_id: aliceRules[1]!.id },
        }),
        requestTo(pageRuleEndpoints.update, {
          params: { ...malloryZone, pagerule_id: mallory.pageRule.id },
          payload: { ...pageRule, id: alice.pageRule.id },
        }),
      ];
      const failures: string[] = [];
      for (const attempt of attempts) {
        const before = await aliceSlice();
        const callsBefore = ctx.sandbox.control.callCount({ token: alice.token });
        const response = await ctx.app.inject({ ...attempt, headers: mallory.user.headers });
        const what = `${attempt.method} ${attempt.url} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (response.statusCode >= 500) failures.push(`${what}: a 5xx`);
        if (attempt.refuse && !(response.statusCode >= 400 && errorCodeOf(response) !== undefined)) {
          failures.push(`${what}: creating in another user's account must be refused`);
        }
        if ((await aliceSlice()) !== before)
          failures.push(`${what}: Alice's rows or Cloudflare account changed`);
        if (ctx.sandbox.control.callCount({ token: alice.token }) !== callsBefore)
          failures.push(`${what}: a call with Alice's token`);
      }
      expect(failures).toEqual([]);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it('lists never show another user’s rows', async () => {
    const aliceIds = [
      alice.cfAccountId,
      alice.list.listId,
      alice.zone.zoneId,
      alice.token,
      alice.accountName,
    ];
    for (const route of apiRoutes(ctx.app).filter(
      (entry) => entry.method === 'GET' && pathParams(entry.url).length === 0,
    )) {
      if (route.access === 'admin') continue;
      // Mallory's own trail lists the requests she sent, Alice's ids she tried above among them:
      // it echoes what she already had, nothing of Alice's.
      if (route.url.startsWith(auditEndpoints.mine.path)) continue;
      const response = await ctx.app.inject({ method: 'GET', url: route.url, headers: mallory.user.headers });
      for (const id of aliceIds) expect(response.body, `${route.url} shows ${id}`).not.toContain(id);
    }
  });

  it(
    "the positive control: the owner's same request succeeds on every one of those routes (so the 404s above mean something)",
    async () => {
      const routes = ownerOrder(withParams(apiRoutes(ctx.app).filter((route) => !isSelfTest(route))));
      const unreachable: string[] = [];
      for (const route of routes) {
        const sample = await sampleRequest(ctx, route, alice);
        const answers: string[] = [];
        let reached = false;
        for (const url of urlsFor(route, alice)) {
          const response = await sendSample(ctx, route, url, alice.user.headers, sample);
          answers.push(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          if (response.statusCode < 400) {
            reached = true;
            break;
          }
        }
        if (!reached) unreachable.push(`${routeName(route)}: ${answers.join('; ')}`);
      }
      expect(unreachable).toEqual([]);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );
});
