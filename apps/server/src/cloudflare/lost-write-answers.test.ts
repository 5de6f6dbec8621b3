import {
  OUTCOME_HEADER,
  type BanList,
  type DnsRecord,
  type FirewallRule,
  type PageRule,
} from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import type { TestUser } from '../test/context';
import { addOwnedZone } from '../test/zone';

/**
 * Writes Cloudflare took while their answer was lost (issue 41, item 2), for lists, DNS records and
 * rules: the console ends equal to Cloudflare and tells the person what Guardian found.
 */

/** The network under the console's client: loses the answers of the next `remaining` writes, once sent. */
const lost = { remaining: 0 };
const network: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (lost.remaining > 0 && (init?.method ?? 'GET').toUpperCase() !== 'GET') {
    lost.remaining -= 1;
    await response.arrayBuffer();
    throw new TypeError('fetch failed', { cause: new Error('read ECONNRESET (the answer was lost)') });
  }
  return response;
};

describe('a write whose answer was lost', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ config: { cloudflare: { fetch: network } as never } });
    alice = await ctx.createUser();
  });
  afterAll(() => ctx.close());
  afterEach(() => {
    lost.remaining = 0;
    ctx.sandbox.control.clearFaults();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: alice.headers, payload });
  const listsOf = async () => (await call('GET', '/api/cloudflare/banlists')).json<BanList[]>();

  it('a list create is recorded as Cloudflare has it, and the answer says Guardian checked', async () => {
    const account = await ctx.addAccount(alice, { name: 'Lost Create Co' });
    lost.remaining = 1;
    const response = await call('POST', '/api/cloudflare/banlists', {
      account_name: 'Lost Create Co',
      list_name: 'lost_create',
      kind: 'ip',
    });
    const atCloudflare = ctx.sandbox.control.getLists(account.account_id);
    expect(atCloudflare.map((list) => list.name)).toEqual(['lost_create']);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<BanList>()).toMatchObject({
      list_name: 'lost_create',
      list_id: atCloudflare[0]!.id,
    });
    expect(response.headers[OUTCOME_HEADER]).toBe(
      "Cloudflare's answer was lost; Guardian checked: the list was created.",
    );
    expect((await listsOf()).filter((list) => list.account_id === account.account_id)).toEqual([
      response.json(),
    ]);
  });

  it('a list delete whose every answer was lost removes the list from the console once Cloudflare has not it', async () => {
    const account = await ctx.addAccount(alice, { name: 'Lost Delete Co' });
    const list = (
      await call('POST', '/api/cloudflare/banlists', {
        account_name: 'Lost Delete Co',
        list_name: 'lost_delete',
        kind: 'ip',
      })
    ).json<BanList>();
    // The delete and each of the client's retries of it: none of their answers arrives.
    lost.remaining = 10;
    const response = await call('DELETE', `/api/cloudflare/banlists/${list.id}`);
    lost.remaining = 0;
    expect(ctx.sandbox.control.getLists(account.account_id)).toEqual([]);
    expect(response.statusCode, response.body).toBe(204);
    expect(response.headers[OUTCOME_HEADER]).toBe(
      "Cloudflare's answer was lost; Guardian checked: the list was deleted.",
    );
    expect(await listsOf()).not.toContainEqual(expect.objectContaining({ id: list.id }));
  });

  it('a DNS record create answers the record Cloudflare made, saying Guardian checked', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    lost.remaining = 1;
    const response = await call('POST', `/api/cloudflare/zones/${zoneId}/dns`, {
      type: 'A',
      name: 'lost',
      content: '192.0.2.41',
      ttl: 1,
      proxied: false,
    });
    const records = ctx.sandbox.control
      .getDnsRecords(zoneId)
      .filter((record) => record.content === '192.0.2.41');
    expect(records).toHaveLength(1);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<DnsRecord>()).toMatchObject({ id: records[0]!.id, content: '192.0.2.41' });
    expect(response.headers[OUTCOME_HEADER]).toBe(
      "Cloudflare's answer was lost; Guardian checked: the record was created.",
    );
  });

  it('a DNS record delete retried after its answer was lost answers deleted, not "not found"', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const record = (
      await call('POST', `/api/cloudflare/zones/${zoneId}/dns`, {
        type: 'A',
        name: 'gone',
        content: '192.0.2.42',
        ttl: 1,
        proxied: false,
      })
    ).json<DnsRecord>();
    lost.remaining = 1;
    const response = await call('DELETE', `/api/cloudflare/zones/${zoneId}/dns/${record.id}`);
    expect(ctx.sandbox.control.getDnsRecords(zoneId).map((seen) => seen.id)).not.toContain(record.id);
    expect(response.statusCode, response.body).toBe(204);
    expect(response.headers[OUTCOME_HEADER]).toBe(
      "Cloudflare's answer was lost; Guardian checked: the record was deleted.",
    );
  });

  it('a WAF custom rule add answers the rules Cloudflare has, saying Guardian checked', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const rule = (description: string, path: string) => ({
      description,
      action: 'block',
      paused: false,
      filter: { expression: `http.request.uri.path eq "${path}"`, paused: false },
    });
    // Appended to an existing ruleset: its retry is refused as a duplicate ref.
    await call('POST', `/api/cloudflare/zones/${zoneId}/firewall-rules`, [rule('First', '/first')]);
    lost.remaining = 1;
    const response = await call('POST', `/api/cloudflare/zones/${zoneId}/firewall-rules`, [
      rule('Lost rule', '/lost'),
    ]);
    expect(ctx.sandbox.control.getRules(zoneId).map((seen) => seen.description)).toEqual([
      'First',
      'Lost rule',
    ]);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ result: FirewallRule[] }>().result.map((rule) => rule.description)).toEqual([
      'First',
      'Lost rule',
    ]);
    expect(response.headers[OUTCOME_HEADER]).toBe(
      "Cloudflare's answer was lost; Guardian checked: the rule was added.",
    );
  });

  it('a page rule create answers the rule Cloudflare made, saying Guardian checked', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    lost.remaining = 1;
    const response = await call('POST', `/api/cloudflare/zones/${zoneId}/pagerules`, {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: 'example.com/lost/*' } }],
      actions: [{ id: 'waf', value: 'off' }],
      priority: 1,
      status: 'active',
    });
    const rules = ctx.sandbox.control.getPageRules(zoneId);
    expect(rules).toHaveLength(1);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<PageRule>().id).toBe(rules[0]!.id);
    expect(response.headers[OUTCOME_HEADER]).toBe(
      "Cloudflare's answer was lost; Guardian checked: the rule was created.",
    );
  });
});
