/** The official `cloudflare` SDK, pointed at the sandbox, proves the sandbox speaks what it expects. */
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from './index';
import { ACCOUNT_A, seededSandbox } from './testing/harness';

let sandbox: Sandbox;
let client: Cloudflare;

beforeAll(async () => {
  sandbox = await seededSandbox();
  const baseURL = await sandbox.listen();
  client = new Cloudflare({ apiToken: 'token-a', baseURL, maxRetries: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('the cloudflare SDK against the sandbox', () => {
  it('verifies the token and lists accounts', async () => {
    expect((await client.user.tokens.verify()).status).toBe('active');
    const accounts = [];
    for await (const account of client.accounts.list()) accounts.push(account.id);
    expect(accounts).toEqual([ACCOUNT_A]);
  });

  it('creates and lists zones and DNS records, auto-paging', async () => {
    const zone = await client.zones.create({ account: { id: ACCOUNT_A }, name: 'example.com', type: 'full' });
    expect(zone.status).toBe('pending');
    expect(zone.name_servers).toHaveLength(2);
    for (let i = 0; i < 6; i++) sandbox.control.addZone(ACCOUNT_A, `more${i}.com`);
    const names = [];
    for await (const z of client.zones.list({ per_page: 5 })) names.push(z.name);
    expect(names).toHaveLength(7);

    const record = await client.dns.records.create({
      zone_id: zone.id,
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
      ttl: 1,
      proxied: true,
    });
    expect(record).toMatchObject({ name: 'www.example.com', proxied: true });
    const records = await client.dns.records.list({ zone_id: zone.id });
    expect(records.result.map((r) => r.id)).toEqual([record.id]);
    await client.dns.records.delete(record.id, { zone_id: zone.id });
    await expect(client.dns.records.get(record.id, { zone_id: zone.id })).rejects.toBeInstanceOf(
      Cloudflare.NotFoundError,
    );
  });

  it('writes list items asynchronously and reads them back with cursors', async () => {
    const list = await client.rules.lists.create({ account_id: ACCOUNT_A, name: 'sdk_ips', kind: 'ip' });
    const written = await client.rules.lists.items.create(list.id, {
      account_id: ACCOUNT_A,
      body: [{ ip: '192.0.2.1', comment: 'one' }],
    });
    await sandbox.control.settle();
    const operation = await client.rules.lists.bulkOperations.get(written.operation_id, {
      account_id: ACCOUNT_A,
    });
    expect(operation.status).toBe('completed');
    sandbox.control.seedListItems(
      ACCOUNT_A,
      list.id,
      Array.from({ length: 1200 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}` })),
    );
    let count = 0;
    for await (const _item of client.rules.lists.items.list(list.id, {
      account_id: ACCOUNT_A,
      per_page: 500,
    }))
      count++;
    expect(count).toBe(1201);
  });

  it('manages WAF custom rules and page rules', async () => {
    const [zone] = sandbox.control.getZones(ACCOUNT_A);
    const zoneId = zone?.id ?? '';
    // The SDK types these answers loosely (unknown); the shape is what the sandbox test asserts.
    const ruleset = (await client.rulesets.phases.update('http_request_firewall_custom', {
      zone_id: zoneId,
      rules: [{ action: 'block', expression: 'ip.src in $sdk_ips', description: 'blocked' }],
    })) as { id: string };
    const updated = (await client.rulesets.rules.create(ruleset.id, {
      zone_id: zoneId,
      action: 'managed_challenge',
      expression: 'http.request.uri.path eq "/login"',
      position: { index: 1 },
    })) as { rules: { action: string }[] };
    expect(updated.rules.map((rule) => rule.action)).toEqual(['managed_challenge', 'block']);
    const fetched = await client.rulesets.phases.get('http_request_firewall_custom', { zone_id: zoneId });
    expect(fetched.version).toBe('2');

    const pageRule = await client.pageRules.create({
      zone_id: zoneId,
      targets: [{ target: 'url', constraint: { operator: 'matches', value: '*example.com/*' } }],
      actions: [{ id: 'always_use_https' }],
      status: 'active',
    });
    expect((await client.pageRules.list({ zone_id: zoneId })).map((rule) => rule.id)).toEqual([pageRule.id]);
  });

  it('surfaces Cloudflare errors and retries a 429 after retry-after', async () => {
    await expect(client.zones.get({ zone_id: '0123456789abcdef0123456789abcdef' })).rejects.toBeInstanceOf(
      Cloudflare.NotFoundError,
    );
    const other = new Cloudflare({ apiToken: 'unknown', baseURL: sandbox.baseUrl ?? '', maxRetries: 0 });
    await expect(other.zones.list()).rejects.toBeInstanceOf(Cloudflare.AuthenticationError);

    sandbox.control.injectFault({ path: '/accounts', status: 429, retryAfterSeconds: 1, times: 1 });
    const retrying = new Cloudflare({ apiToken: 'token-a', baseURL: sandbox.baseUrl ?? '', maxRetries: 1 });
    sandbox.control.resetCalls();
    const accounts = await retrying.accounts.list();
    expect(accounts.result).toHaveLength(1);
    expect(sandbox.control.callCount({ path: '/accounts' })).toBe(2);
  });
});
