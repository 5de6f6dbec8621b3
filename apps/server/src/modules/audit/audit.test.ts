import {
  allEndpoints,
  serverEndpoints,
  type AuditEvent,
  type AuditPage,
  type BanList,
  type BanListItem,
} from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuditRepository } from './audit.repository';
import {
  apiRoutes,
  ownerOrder,
  sampleCall,
  seedEstate,
  sendSample,
  serverCallHeaders,
  ROUTE_WALK_TIMEOUT_MS,
} from '../../test/security';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import { addOwnedZone } from '../../test/zone';
import type { TestUser } from '../../test/context';

describe('the audit trail', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    admin = await ctx.createUser({ level: 0 });
  });
  afterAll(() => ctx.close());
  afterEach(() => ctx.sandbox.control.clearFaults());

  const call = (user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api${url}`, headers: user.headers, payload });
  const trailOf = async (user: TestUser, query = '') => {
    const response = await call(user, 'GET', `/audit${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<AuditPage>();
  };
  const rawTrail = () => ctx.db.query<Record<string, unknown>>('SELECT * FROM audit_events ORDER BY id');

  it("records a change with who, from where, what, about which account, and how it ended; only the person's own", async () => {
    const account = await ctx.addAccount(alice, { name: 'Trail Co' });
    const list = (
      await call(alice, 'POST', '/cloudflare/banlists', {
        account_name: 'Trail Co',
        list_name: 'trail',
        kind: 'ip',
      })
    ).json<BanList>();
    const added = await call(alice, 'POST', `/cloudflare/banlists/${list.list_id}/items`, {
      ip: '192.0.2.44',
      comment: 'seen scanning',
    });
    expect(added.statusCode).toBe(201);

    const [newest] = (await trailOf(alice)).events;
    expect(newest).toMatchObject<Partial<AuditEvent>>({
      user_id: alice.id,
      actor: alice.email,
      address: '127.0.0.1',
      action: 'banListItems.add',
      request: 'POST /api/cloudflare/banlists/{list_id}/items',
      account_id: account.account_id,
      zone_id: null,
      outcome: 'success',
      status: 201,
      message: null,
    });
    expect(newest!.target).toEqual({ list_id: list.list_id, ip: '192.0.2.44', comment: 'seen scanning' });
    expect((await trailOf(alice)).events.map((event) => event.action)).toContain('banLists.add');
    expect((await trailOf(bob)).events).toEqual([]);
  });

  it('records what Cloudflare refused or failed, with its message', async () => {
    await ctx.addAccount(alice, { name: 'Failing Co' });
    ctx.sandbox.control.injectFault({ path: /\/rules\/lists$/, method: 'POST', status: 503 });
    const failed = await call(alice, 'POST', '/cloudflare/banlists', {
      account_name: 'Failing Co',
      list_name: 'never',
      kind: 'ip',
    });
    expect(failed.statusCode).toBe(502);
    const [newest] = (await trailOf(alice, '?action=banLists.add')).events;
    expect(newest).toMatchObject({ outcome: 'failed', status: 502, message: failed.json().message });
  });

  it('records sign-ins and their failures, and never a password or a Cloudflare token', async () => {
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: bob.email, password: 'not-the-password-9' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: bob.email, password: bob.password },
    });
    expect(right.statusCode).toBe(200);
    const account = await ctx.addAccount(bob, { name: 'Secret Co' });

    const rows = await rawTrail();
    const signIns = rows.filter((row) => row.action === 'auth.login' && row.actor === bob.email);
    expect(signIns.map((row) => row.outcome)).toEqual(['refused', 'success']);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('not-the-password-9');
    expect(text).not.toContain(bob.password);
    expect(text).not.toContain(account.tokenValue);
    expect(
      rows.find((row) => row.action === 'accounts.add' && row.actor === bob.email)?.target,
    ).toMatchObject({
      token: '[redacted]',
    });
  });

  it('administrators read everyone’s trail; others get 403', async () => {
    expect((await call(alice, 'GET', '/admin/audit')).statusCode).toBe(403);
    const everyone = (await call(admin, 'GET', '/admin/audit?limit=200')).json<AuditPage>();
    const actors = new Set(everyone.events.map((event) => event.actor));
    expect(actors).toContain(alice.email);
    expect(actors).toContain(bob.email);
    const onlyBob = (
      await call(admin, 'GET', `/admin/audit?actor=${encodeURIComponent(bob.email)}`)
    ).json<AuditPage>();
    expect(onlyBob.events.length).toBeGreaterThan(0);
    expect(onlyBob.events.every((event) => event.actor === bob.email)).toBe(true);
  });

  it('pages by cursor, newest first, and refuses bad filters with a 400', async () => {
    const all = (await trailOf(alice, '?limit=200')).events;
    const first = await trailOf(alice, '?limit=2');
    expect(first.events).toEqual(all.slice(0, 2));
    const second = await trailOf(alice, `?limit=2&before=${first.next_cursor}`);
    expect(second.events).toEqual(all.slice(2, 4));
    for (const query of [
      '?limit=0',
      '?limit=201',
      '?from=yesterday',
      '?outcome=maybe',
      `?actor=${'x'.repeat(255)}`,
    ]) {
      expect((await call(alice, 'GET', `/audit${query}`)).statusCode, query).toBe(400);
    }
  });

  it('orders by time, then id, also across pages and within a time filter', async () => {
    // Written out of time order (a slow request's event lands after a quicker, later one).
    const carol = await ctx.createUser();
    const times = ['10:00', '10:02', '10:01', '10:02', '10:03'];
    for (const [index, time] of times.entries()) {
      await ctx.db.query(
        `INSERT INTO audit_events (at, user_id, actor, address, action, request, outcome, status)
         VALUES ($1, $2, $3, '127.0.0.1', $4, 'POST /api/x', 'success', 200)`,
        [`2026-11-20T${time}:00Z`, carol.id, carol.email, `test.event${index}`],
      );
    }
    const expected = ['test.event4', 'test.event3', 'test.event1', 'test.event2', 'test.event0'];
    const seen: string[] = [];
    let cursor: number | null = null;
    do {
      const page: AuditPage = await trailOf(carol, `?limit=2${cursor ? `&before=${cursor}` : ''}`);
      seen.push(...page.events.map((event) => event.action));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(expected);
    const window = await trailOf(carol, '?from=2026-11-20T10:01:00Z&to=2026-11-20T10:03:00Z');
    expect(window.events.map((event) => event.action)).toEqual(['test.event3', 'test.event1', 'test.event2']);
  });

  it("finds a person by their whole e-mail (events under an earlier one too), and anyone's by part of one", async () => {
    const dave = await ctx.createUser();
    for (const [actor, userId, action] of [
      ['dave.before@example.test', dave.id, 'test.earlierEmail'],
      [dave.email, dave.id, 'test.current'],
      [`not-${dave.email}`, null, 'test.unknownSignIn'],
    ] as const) {
      await ctx.db.query(
        `INSERT INTO audit_events (user_id, actor, address, action, request, outcome, status)
         VALUES ($1, $2, '127.0.0.1', $3, 'POST /api/x', 'success', 200)`,
        [userId, actor, action],
      );
    }
    const actionsFor = async (actor: string) =>
      (await call(admin, 'GET', `/admin/audit?actor=${encodeURIComponent(actor)}`))
        .json<AuditPage>()
        .events.map((event) => event.action);
    expect(await actionsFor(dave.email.toUpperCase())).toEqual(['test.current', 'test.earlierEmail']);
    expect(await actionsFor(`not-${dave.email}`)).toEqual(['test.unknownSignIn']);
    expect(await actionsFor('dave.before@')).toEqual(['test.earlierEmail']);
  });

  it('exports the filtered trail as CSV', async () => {
    const response = await call(alice, 'GET', '/audit/export?action=banListItems.');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...lines] = response.body.trim().split('\n');
    expect(header).toBe(
      'id,at,actor,address,action,request,account_id,zone_id,outcome,status,message,summary,target',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(',banListItems.add,POST /api/cloudflare/banlists/{list_id}/items,');
  });

  it('exports what a caller typed as text, never as a spreadsheet formula', async () => {
    await ctx.db.query(
      `INSERT INTO audit_events (user_id, actor, address, action, request, outcome, status, message)
       VALUES ($1, '=HYPERLINK("http://x.test")', '127.0.0.1', 'test.formula', 'POST /api/x', 'refused', 400, '@SUM(1+1)')`,
      [alice.id],
    );
    const response = await call(alice, 'GET', '/audit/export?action=test.formula');
    expect(response.statusCode).toBe(200);
    const [, line] = response.body.trim().split('\n');
    expect(line).toContain(`,"'=HYPERLINK(""http://x.test"")",`);
    expect(line).toContain(`,'@SUM(1+1),`);
    expect(line).not.toMatch(/,=|,"=|,@/);
  });

  it('is append-only: rows cannot be changed or deleted, except by the retention sweep', async () => {
    await expect(ctx.db.query("UPDATE audit_events SET actor = 'someone else'")).rejects.toThrow(
      /append-only/,
    );
    await expect(ctx.db.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
    const before = (await rawTrail()).length;
    await ctx.db.exec(`
      ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only;
      UPDATE audit_events SET at = now() - interval '400 days' WHERE id = (SELECT min(id) FROM audit_events);
      ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only;`);
    expect(await AuditRepository.sweep(ctx.db, 365 * 86_400_000)).toBe(1);
    expect((await rawTrail()).length).toBe(before - 1);
  });

  it(
    'has a row for every request to every write route',
    async () => {
      const estate = await seedEstate(ctx, await ctx.createUser(), 'audit');
      // Not the endpoints that change nothing (an import's preview): they are not changes.
      const previews = new Set(
        allEndpoints.filter((endpoint) => endpoint.changesNothing).map((e) => `${e.method} ${e.path}`),
      );
      const writes = ownerOrder(
        apiRoutes(ctx.app).filter(
          (route) => !['GET', 'HEAD'].includes(route.method) && !previews.has(`${route.method} ${route.url}`),
        ),
      );
      const missing: string[] = [];
      for (const route of writes) {
        const { url, sample } = await sampleCall(ctx, route, estate);
        const [before] = await ctx.db.query<{ last: number }>(
          'SELECT coalesce(max(id), 0)::int AS last FROM audit_events',
        );
        // The server API takes the estate's server key; every other route the person's session.
        const headers =
          route.access === 'server' ? serverCallHeaders(route, estate, sample.payload) : estate.user.headers;
        const response = await sendSample(ctx, route, url, headers, sample);
        // The walk makes the estate's server a new signing secret: its webhook call signs with that one.
        if (route.url === serverEndpoints.signingSecret.path && response.statusCode === 200)
          estate.server.signingSecret = response.json<{ signing_secret: string }>().signing_secret;
        const request = `${route.method} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
        const rows = await ctx.db.query('SELECT 1 FROM audit_events WHERE request = $1 AND id > $2', [
          request,
          before!.last,
        ]);
        if (rows.length === 0) missing.push(`${request} (answered ${response.statusCode})`);
      }
      expect(writes.length).toBeGreaterThan(15);
      expect(missing).toEqual([]);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  describe('in words', () => {
    const summaries = async (user: TestUser, query: string) =>
      (await trailOf(user, query)).events.map((event) => event.summary);

    it('names the address an item removal removed, the list and the account, and finds it by the address', async () => {
      const ada = await ctx.createUser({ email: `ada.${Date.now()}@example.com` });
      await ctx.addAccount(ada, { name: 'Acme' });
      const list = (
        await call(ada, 'POST', '/cloudflare/banlists', {
          account_name: 'Acme',
          list_name: 'block_list',
          kind: 'ip',
        })
      ).json<BanList>();
      const item = (
        await call(ada, 'POST', `/cloudflare/banlists/${list.list_id}/items`, {
          ip: '203.0.113.7',
          comment: 'scan',
        })
      ).json<BanListItem>();
      const removed = await call(ada, 'DELETE', `/cloudflare/banlists/${list.list_id}/items/${item.id}`);
      expect(removed.statusCode).toBe(204);

      const [newest] = (await trailOf(ada)).events;
      expect(newest).toMatchObject({ action: 'banListItems.remove', outcome: 'success' });
      expect(newest!.summary).toBe(`${ada.email} removed 203.0.113.7 from block_list (account Acme)`);
      // Who removed 203.0.113.7? Its addition and its removal, newest first, and nothing else.
      expect(await summaries(ada, '?q=203.0.113.7')).toEqual([
        `${ada.email} removed 203.0.113.7 from block_list (account Acme)`,
        `${ada.email} added 203.0.113.7 to block_list (account Acme)`,
      ]);
      expect(
        await summaries(admin, `/../admin/audit?q=${encodeURIComponent('removed 203.0.113.7')}`),
      ).toEqual([`${ada.email} removed 203.0.113.7 from block_list (account Acme)`]);
      // By a list's name, in any case (its creation, the addition, the removal); % and _ are
      // themselves, not patterns.
      expect((await summaries(ada, '?q=BLOCK_LIST')).length).toBe(3);
      expect(await summaries(ada, '?q=block%25list')).toEqual([]);
      expect((await call(ada, 'GET', `/audit?q=${'x'.repeat(201)}`)).statusCode).toBe(400);
      // A removal that failed says so, and still names the address.
      const again = (
        await call(ada, 'POST', `/cloudflare/banlists/${list.list_id}/items`, {
          ip: '203.0.113.8',
          comment: 'scan',
        })
      ).json<BanListItem>();
      ctx.sandbox.control.injectFault({ path: /\/items$/, method: 'DELETE', status: 503 });
      const refused = await call(ada, 'DELETE', `/cloudflare/banlists/${list.list_id}/items/${again.id}`);
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect((await summaries(ada, '?q=203.0.113.8'))[0]).toMatch(
        new RegExp(
          `^${ada.email.replace(/\./g, '\\.')} tried to remove 203\\.0\\.113\\.8 from block_list \\(account Acme\\) \\((refused|failed)\\)$`,
        ),
      );
    });

    it('names at most five addresses of a removal across lists, then counts the rest', async () => {
      const bea = await ctx.createUser();
      await ctx.addAccount(bea, { name: 'Many Co' });
      const list = (
        await call(bea, 'POST', '/cloudflare/banlists', {
          account_name: 'Many Co',
          list_name: 'many',
          kind: 'ip',
        })
      ).json<BanList>();
      const items: { list_id: string; item_id: number }[] = [];
      for (let n = 1; n <= 7; n++) {
        const item = (
          await call(bea, 'POST', `/cloudflare/banlists/${list.list_id}/items`, {
            ip: `198.51.100.${n}`,
            comment: 'x',
          })
        ).json<BanListItem>();
        items.push({ list_id: list.list_id, item_id: item.id });
      }
      const removed = await call(bea, 'POST', '/cloudflare/ip-search/remove', { items });
      expect(removed.statusCode).toBeLessThan(300);
      const [newest] = (await trailOf(bea, '?action=ipSearch.remove')).events;
      expect(newest!.summary).toBe(
        `${bea.email} removed 198.51.100.1, 198.51.100.2, 198.51.100.3, 198.51.100.4, 198.51.100.5 and 2 more from many`,
      );
    });

    it('names a DNS record by its type and name when it is created and when it is deleted', async () => {
      const dan = await ctx.createUser();
      const { zoneId } = await addOwnedZone(ctx, dan);
      const [zone] = await ctx.db.query<{ domain: string }>('SELECT domain FROM zones WHERE zone_id = $1', [
        zoneId,
      ]);
      const created = await call(dan, 'POST', `/cloudflare/zones/${zoneId}/dns`, {
        type: 'A',
        name: `www.${zone!.domain}`,
        content: '192.0.2.80',
        ttl: 1,
        proxied: false,
      });
      expect(created.statusCode, created.body).toBe(201);
      const record = created.json<{ id: string }>();
      expect((await call(dan, 'DELETE', `/cloudflare/zones/${zoneId}/dns/${record.id}`)).statusCode).toBe(
        204,
      );
      expect(await summaries(dan, '?action=dnsRecords.')).toEqual([
        `${dan.email} deleted DNS record A www.${zone!.domain} in ${zone!.domain}`,
        `${dan.email} created DNS record A www.${zone!.domain} in ${zone!.domain}`,
      ]);
    });

    it('names a deleted firewall rule by its description and a deleted page rule by its URL pattern', async () => {
      const eve = await ctx.createUser();
      const { zoneId } = await addOwnedZone(ctx, eve);
      const [zone] = await ctx.db.query<{ domain: string }>('SELECT domain FROM zones WHERE zone_id = $1', [
        zoneId,
      ]);
      const rules = `/cloudflare/zones/${zoneId}/firewall-rules`;
      const added = await call(eve, 'POST', rules, [
        {
          description: 'Block the scanners',
          action: 'block',
          paused: false,
          filter: { expression: 'ip.src eq 192.0.2.9', paused: false },
        },
      ]);
      expect(added.statusCode, added.body).toBe(201);
      const [rule] = added.json<{ result: { id: string; filter: { id: string } }[] }>().result;
      const pageRule = await call(eve, 'POST', `/cloudflare/zones/${zoneId}/pagerules`, {
        targets: [{ target: 'url', constraint: { operator: 'matches', value: `${zone!.domain}/old/*` } }],
        actions: [{ id: 'always_use_https', value: 'on' }],
      });
      expect(pageRule.statusCode, pageRule.body).toBe(201);
      const pageRuleId = pageRule.json<{ id: string }>().id;

      ctx.sandbox.control.resetCalls();
      const removedRule = await call(eve, 'DELETE', `${rules}/${rule!.id}?filter_id=${rule!.filter.id}`);
      expect(removedRule.statusCode, removedRule.body).toBe(204);
      const removedPageRule = await call(
        eve,
        'DELETE',
        `/cloudflare/zones/${zoneId}/pagerules/${pageRuleId}`,
      );
      expect(removedPageRule.statusCode, removedPageRule.body).toBe(204);
      // Named from the rule each delete reads first anyway: no call more than the deletes make.
      expect(ctx.sandbox.control.callCount({ path: new RegExp(`/zones/${zoneId}/`) })).toBe(4);

      expect(await summaries(eve, '?q=deleted')).toEqual([
        `${eve.email} deleted page rule for ${zone!.domain}/old/* in ${zone!.domain}`,
        `${eve.email} deleted firewall rule "Block the scanners" in ${zone!.domain}`,
      ]);
      // Found by what a person remembers of it; its add (a list holding the rule) is named too.
      expect(await summaries(eve, '?q=scanners')).toEqual([
        `${eve.email} deleted firewall rule "Block the scanners" in ${zone!.domain}`,
        `${eve.email} added firewall rule "Block the scanners" to ${zone!.domain}`,
      ]);
    });

    it('does not record an import preview, which changes nothing', async () => {
      const cleo = await ctx.createUser();
      await ctx.addAccount(cleo, { name: 'Preview Co' });
      const list = (
        await call(cleo, 'POST', '/cloudflare/banlists', {
          account_name: 'Preview Co',
          list_name: 'pre',
          kind: 'ip',
        })
      ).json<BanList>();
      const before = (await trailOf(cleo)).events.length;
      const preview = await call(cleo, 'POST', `/cloudflare/banlists/${list.list_id}/items/import/preview`, {
        text: '192.0.2.10\n192.0.2.11',
      });
      expect(preview.statusCode).toBe(200);
      expect((await trailOf(cleo)).events.length).toBe(before);
    });
  });
});
