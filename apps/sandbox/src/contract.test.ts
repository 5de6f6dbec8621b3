/**
 * Every operation of Cloudflare's OpenAPI subset, answered with success and with an error, each answer
 * checked against the document by the harness. The last test proves nothing was left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from './index';
import {
  ACCOUNT_A,
  ACCOUNT_B,
  call,
  exercised,
  items,
  openApiOperations,
  seededSandbox,
  text,
} from './testing/harness';

const UNKNOWN_ID = '0123456789abcdef0123456789abcdef';
let sandbox: Sandbox;
let zoneId = '';
let listId = '';
let recordId = '';
let rulesetId = '';
let ruleId = '';
let pageRuleId = '';

beforeAll(async () => {
  sandbox = await seededSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('tokens and accounts', () => {
  it('GET /user/tokens/verify', async () => {
    const ok = await call(sandbox, 'GET', '/user/tokens/verify');
    expect(ok.status).toBe(200);
    expect(ok.body.result.status).toBe('active');
    expect(ok.body.messages[0]?.message).toBe('This API Token is valid and active');
    const unknown = await call(sandbox, 'GET', '/user/tokens/verify', { token: 'nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0]).toEqual({ code: 1000, message: 'Invalid API Token' });
  });

  it('GET /accounts/{account_id}/tokens/verify', async () => {
    const ok = await call(sandbox, 'GET', `/accounts/${ACCOUNT_A}/tokens/verify`, { token: 'token-acct' });
    expect(ok.status).toBe(200);
    const userToken = await call(sandbox, 'GET', `/accounts/${ACCOUNT_A}/tokens/verify`);
    expect(userToken.status).toBe(401);
  });

  it('verify tells when a token expires, answers expired once it has, and refuses a removed token', async () => {
    const later = new Date(Date.now() + 86_400_000);
    sandbox.control.addToken({
      value: 'token-expiring',
      accountIds: [ACCOUNT_A],
      expiresOn: later.toISOString(),
    });
    const active = await call(sandbox, 'GET', '/user/tokens/verify', { token: 'token-expiring' });
    expect(active.body.result.status).toBe('active');
    expect(Date.parse(text(active.body.result.expires_on))).toBe(later.getTime());

    const past = new Date(Date.now() - 1000).toISOString();
    sandbox.control.addToken({ value: 'token-lapsed', accountIds: [ACCOUNT_A], expiresOn: past });
    const lapsed = await call(sandbox, 'GET', '/user/tokens/verify', { token: 'token-lapsed' });
    expect(lapsed.status).toBe(200);
    expect(lapsed.body.result.status).toBe('expired');
    expect((await call(sandbox, 'GET', '/accounts', { token: 'token-lapsed' })).status).toBe(401);

    sandbox.control.removeToken('token-expiring');
    const removed = await call(sandbox, 'GET', '/user/tokens/verify', { token: 'token-expiring' });
    expect(removed.status).toBe(401);
    expect(removed.body.errors[0]).toEqual({ code: 1000, message: 'Invalid API Token' });
  });

  it('GET /accounts', async () => {
    const ok = await call(sandbox, 'GET', '/accounts', { token: 'token-ab' });
    expect(items(ok.body.result).map((account) => account.id)).toEqual([ACCOUNT_A, ACCOUNT_B]);
    expect(ok.body.result_info).toMatchObject({ page: 1, per_page: 20, count: 2, total_count: 2 });
    const badPage = await call(sandbox, 'GET', '/accounts?per_page=51');
    expect(badPage.status).toBe(400);
    const noToken = await call(sandbox, 'GET', '/accounts', { token: null });
    expect(noToken.status).toBe(400);
    expect(noToken.body.errors[0].code).toBe(9106);
  });
});

describe('zones', () => {
  it('POST /zones', async () => {
    const ok = await call(sandbox, 'POST', '/zones', {
      body: { account: { id: ACCOUNT_A }, name: 'example.com' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result.status).toBe('pending');
    expect(items(ok.body.result.name_servers)).toHaveLength(2);
    zoneId = text(ok.body.result.id);
    const duplicate = await call(sandbox, 'POST', '/zones', {
      body: { account: { id: ACCOUNT_A }, name: 'example.com' },
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0]).toEqual({ code: 1061, message: 'example.com already exists' });
  });

  it('GET /zones', async () => {
    const ok = await call(sandbox, 'GET', `/zones?account.id=${ACCOUNT_A}&per_page=5`);
    expect(items(ok.body.result)).toHaveLength(1);
    const tooSmall = await call(sandbox, 'GET', '/zones?per_page=4');
    expect(tooSmall.status).toBe(400);
  });

  it('GET /zones/{zone_id}', async () => {
    expect((await call(sandbox, 'GET', `/zones/${zoneId}`)).body.result.name).toBe('example.com');
    const otherAccount = await call(sandbox, 'GET', `/zones/${zoneId}`, { token: 'token-b' });
    expect(otherAccount.status).toBe(403);
    expect(otherAccount.body.errors[0]).toEqual({ code: 10000, message: 'Authentication error' });
  });

  it('PATCH /zones/{zone_id}', async () => {
    const ok = await call(sandbox, 'PATCH', `/zones/${zoneId}`, { body: { paused: true } });
    expect(ok.body.result.paused).toBe(true);
    const bad = await call(sandbox, 'PATCH', `/zones/${zoneId}`, { body: { paused: 'yes' } });
    expect(bad.status).toBe(400);
  });
});

describe('DNS records', () => {
  it('POST /zones/{zone_id}/dns_records', async () => {
    const ok = await call(sandbox, 'POST', `/zones/${zoneId}/dns_records`, {
      body: { type: 'A', name: 'www', content: '192.0.2.1', ttl: 1, proxied: true },
    });
    expect(ok.body.result).toMatchObject({ name: 'www.example.com', proxiable: true, proxied: true });
    recordId = text(ok.body.result.id);
    const bad = await call(sandbox, 'POST', `/zones/${zoneId}/dns_records`, {
      body: { type: 'A', name: 'www', content: 'not-an-ip', ttl: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].error_chain[0].code).toBe(9005);
  });

  it('GET /zones/{zone_id}/dns_records', async () => {
    const ok = await call(sandbox, 'GET', `/zones/${zoneId}/dns_records?type=A&name=www.example.com`);
    expect(items(ok.body.result)).toHaveLength(1);
    expect(ok.body.result_info).toMatchObject({ page: 1, count: 1, total_count: 1 });
    const unknownZone = await call(sandbox, 'GET', `/zones/${UNKNOWN_ID}/dns_records`);
    expect(unknownZone.status).toBe(404);
    expect(unknownZone.body.errors[0].code).toBe(7003);
  });

  it('GET /zones/{zone_id}/dns_records/{dns_record_id}', async () => {
    expect((await call(sandbox, 'GET', `/zones/${zoneId}/dns_records/${recordId}`)).status).toBe(200);
    const missing = await call(sandbox, 'GET', `/zones/${zoneId}/dns_records/${UNKNOWN_ID}`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0]).toEqual({ code: 81044, message: 'Record does not exist.' });
  });

  it('PUT /zones/{zone_id}/dns_records/{dns_record_id}', async () => {
    const ok = await call(sandbox, 'PUT', `/zones/${zoneId}/dns_records/${recordId}`, {
      body: { type: 'A', name: 'www', content: '192.0.2.2', ttl: 300, proxied: false },
    });
    expect(ok.body.result).toMatchObject({ content: '192.0.2.2', ttl: 300 });
    const typeChange = await call(sandbox, 'PUT', `/zones/${zoneId}/dns_records/${recordId}`, {
      body: { type: 'AAAA', name: 'www', content: '2001:db8::1', ttl: 1 },
    });
    expect(typeChange.status).toBe(400);
  });

  it('PATCH /zones/{zone_id}/dns_records/{dns_record_id}', async () => {
    const ok = await call(sandbox, 'PATCH', `/zones/${zoneId}/dns_records/${recordId}`, {
      body: { comment: 'web' },
    });
    expect(ok.body.result).toMatchObject({ comment: 'web', content: '192.0.2.2' });
    const badTtl = await call(sandbox, 'PATCH', `/zones/${zoneId}/dns_records/${recordId}`, {
      body: { ttl: 10 },
    });
    expect(badTtl.status).toBe(400);
  });

  it('DELETE /zones/{zone_id}/dns_records/{dns_record_id}', async () => {
    expect((await call(sandbox, 'DELETE', `/zones/${zoneId}/dns_records/${recordId}`)).body.result.id).toBe(
      recordId,
    );
    expect((await call(sandbox, 'DELETE', `/zones/${zoneId}/dns_records/${recordId}`)).status).toBe(404);
  });
});

describe('lists', () => {
  it('POST /accounts/{account_id}/rules/lists', async () => {
    const ok = await call(sandbox, 'POST', `/accounts/${ACCOUNT_A}/rules/lists`, {
      body: { name: 'blocked_ips', kind: 'ip', description: 'bad actors' },
    });
    expect(ok.body.result).toMatchObject({
      name: 'blocked_ips',
      kind: 'ip',
      num_items: 0,
      num_referencing_filters: 0,
    });
    listId = text(ok.body.result.id);
    const badName = await call(sandbox, 'POST', `/accounts/${ACCOUNT_A}/rules/lists`, {
      body: { name: 'Bad-Name', kind: 'ip' },
    });
    expect(badName.status).toBe(400);
  });

  it('GET /accounts/{account_id}/rules/lists', async () => {
    expect(
      items((await call(sandbox, 'GET', `/accounts/${ACCOUNT_A}/rules/lists`)).body.result),
    ).toHaveLength(1);
    const otherAccount = await call(sandbox, 'GET', `/accounts/${ACCOUNT_B}/rules/lists`);
    expect(otherAccount.status).toBe(403);
  });

  it('GET /accounts/{account_id}/rules/lists/{list_id}', async () => {
    expect((await call(sandbox, 'GET', `/accounts/${ACCOUNT_A}/rules/lists/${listId}`)).status).toBe(200);
    expect((await call(sandbox, 'GET', `/accounts/${ACCOUNT_A}/rules/lists/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('PUT /accounts/{account_id}/rules/lists/{list_id}', async () => {
    const ok = await call(sandbox, 'PUT', `/accounts/${ACCOUNT_A}/rules/lists/${listId}`, {
      body: { description: 'new' },
    });
    expect(ok.body.result.description).toBe('new');
    const bad = await call(sandbox, 'PUT', `/accounts/${ACCOUNT_A}/rules/lists/${listId}`, {
      body: { description: 7 },
    });
    expect(bad.status).toBe(400);
  });

  it('POST, PUT, DELETE .../items and GET .../bulk_operations/{operation_id}', async () => {
    const base = `/accounts/${ACCOUNT_A}/rules/lists/${listId}`;
    const append = await call(sandbox, 'POST', `${base}/items`, {
      body: [{ ip: '192.0.2.1', comment: 'one' }],
    });
    const operationId = text(append.body.result.operation_id);
    const pending = await call(
      sandbox,
      'GET',
      `/accounts/${ACCOUNT_A}/rules/lists/bulk_operations/${operationId}`,
    );
    expect(['pending', 'running', 'completed']).toContain(pending.body.result.status);
    await sandbox.control.settle();
    const done = await call(
      sandbox,
      'GET',
      `/accounts/${ACCOUNT_A}/rules/lists/bulk_operations/${operationId}`,
    );
    expect(done.body.result.status).toBe('completed');
    expect(
      (await call(sandbox, 'GET', `/accounts/${ACCOUNT_A}/rules/lists/bulk_operations/${UNKNOWN_ID}`)).status,
    ).toBe(404);

    const replace = await call(sandbox, 'PUT', `${base}/items`, {
      body: [{ ip: '192.0.2.2' }, { ip: '192.0.2.3' }],
    });
    expect(replace.status).toBe(200);
    expect((await call(sandbox, 'PUT', `${base}/items`, { body: { ip: 'x' } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${base}/items`, { body: 'nope' })).status).toBe(400);
    await sandbox.control.settle();
    const [first] = sandbox.control.getListItems(ACCOUNT_A, listId);
    const remove = await call(sandbox, 'DELETE', `${base}/items`, { body: { items: [{ id: first?.id }] } });
    expect(remove.status).toBe(200);
    expect((await call(sandbox, 'DELETE', `${base}/items`, { body: { items: [] } })).status).toBe(400);
    await sandbox.control.settle();
    expect(sandbox.control.getListItems(ACCOUNT_A, listId).map((item) => item.ip)).toEqual(['192.0.2.3']);
  });

  it('GET .../items and GET .../items/{item_id}', async () => {
    const base = `/accounts/${ACCOUNT_A}/rules/lists/${listId}`;
    const page = await call(sandbox, 'GET', `${base}/items?per_page=10`);
    expect(page.body.result_info).toEqual({ cursors: {} });
    const itemId = text(items(page.body.result)[0]?.id ?? ({} as never));
    expect((await call(sandbox, 'GET', `${base}/items/${itemId}`)).body.result.ip).toBe('192.0.2.3');
    expect((await call(sandbox, 'GET', `${base}/items/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await call(sandbox, 'GET', `${base}/items?per_page=501`)).status).toBe(400);
  });
});

describe('WAF custom rules (rulesets)', () => {
  const entrypoint = () => `/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`;

  it('GET and PUT the entrypoint', async () => {
    const missing = await call(sandbox, 'GET', entrypoint());
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe(10003);
    const created = await call(sandbox, 'PUT', entrypoint(), {
      body: { rules: [{ action: 'block', expression: 'ip.src in $blocked_ips', description: 'blocked' }] },
    });
    expect(created.body.result).toMatchObject({
      version: '1',
      phase: 'http_request_firewall_custom',
      kind: 'zone',
    });
    rulesetId = text(created.body.result.id);
    ruleId = text(items(created.body.result.rules)[0]?.id ?? ({} as never));
    expect((await call(sandbox, 'GET', entrypoint())).body.result.id).toBe(rulesetId);
    const badExpression = await call(sandbox, 'PUT', entrypoint(), {
      body: { rules: [{ action: 'block', expression: '(ip.src eq 1.2.3.4' }] },
    });
    expect(badExpression.status).toBe(400);
    expect(badExpression.body.errors[0].source.pointer).toBe('/rules/0/expression');
  });

  it('GET /zones/{zone_id}/rulesets and GET /zones/{zone_id}/rulesets/{ruleset_id}', async () => {
    const list = await call(sandbox, 'GET', `/zones/${zoneId}/rulesets`);
    expect(items(list.body.result).map((ruleset) => ruleset.id)).toEqual([rulesetId]);
    expect((await call(sandbox, 'GET', `/zones/${zoneId}/rulesets?per_page=0`)).status).toBe(400);
    expect(
      (await call(sandbox, 'GET', `/zones/${zoneId}/rulesets/${rulesetId}`)).body.result.rules,
    ).toHaveLength(1);
    expect((await call(sandbox, 'GET', `/zones/${zoneId}/rulesets/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('POST /zones/{zone_id}/rulesets', async () => {
    const duplicate = await call(sandbox, 'POST', `/zones/${zoneId}/rulesets`, {
      body: { name: 'custom', kind: 'zone', phase: 'http_request_firewall_custom', rules: [] },
    });
    expect(duplicate.status).toBe(400);
    const otherZone = await call(sandbox, 'POST', '/zones', {
      body: { account: { id: ACCOUNT_A }, name: 'example.org' },
    });
    const created = await call(sandbox, 'POST', `/zones/${text(otherZone.body.result.id)}/rulesets`, {
      body: { name: 'custom', kind: 'zone', phase: 'http_request_firewall_custom', rules: [] },
    });
    expect(created.body.result).toMatchObject({ name: 'custom', version: '1', rules: [] });
  });

  it('POST, PATCH and DELETE .../rules', async () => {
    const rules = `/zones/${zoneId}/rulesets/${rulesetId}/rules`;
    const added = await call(sandbox, 'POST', rules, {
      body: {
        action: 'managed_challenge',
        expression: 'http.request.uri.path eq "/login"',
        position: { index: 1 },
      },
    });
    expect(items(added.body.result.rules).map((rule) => rule.action)).toEqual(['managed_challenge', 'block']);
    expect(added.body.result.version).toBe('2');
    expect(
      (await call(sandbox, 'POST', rules, { body: { action: 'allow', expression: 'ip.src eq 1.1.1.1' } }))
        .status,
    ).toBe(400);

    const patched = await call(sandbox, 'PATCH', `${rules}/${ruleId}`, { body: { enabled: false } });
    expect(items(patched.body.result.rules)[1]).toMatchObject({ id: ruleId, enabled: false, version: '2' });
    expect((await call(sandbox, 'PATCH', `${rules}/${UNKNOWN_ID}`, { body: { enabled: true } })).status).toBe(
      404,
    );

    const deleted = await call(sandbox, 'DELETE', `${rules}/${ruleId}`);
    expect(items(deleted.body.result.rules)).toHaveLength(1);
    expect((await call(sandbox, 'DELETE', `${rules}/${ruleId}`)).status).toBe(404);
  });
});

describe('page rules', () => {
  const target = (value: string) => [{ target: 'url', constraint: { operator: 'matches', value } }];

  it('POST /zones/{zone_id}/pagerules', async () => {
    const ok = await call(sandbox, 'POST', `/zones/${zoneId}/pagerules`, {
      body: {
        targets: target('*example.com/images/*'),
        actions: [{ id: 'cache_level', value: 'bypass' }],
        status: 'active',
      },
    });
    expect(ok.body.result).toMatchObject({ priority: 1, status: 'active' });
    pageRuleId = text(ok.body.result.id);
    const bad = await call(sandbox, 'POST', `/zones/${zoneId}/pagerules`, {
      body: { targets: target('*example.com/*'), actions: [{ id: 'not_a_setting', value: 'on' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe(1004);
  });

  it('GET /zones/{zone_id}/pagerules', async () => {
    expect(items((await call(sandbox, 'GET', `/zones/${zoneId}/pagerules`)).body.result)).toHaveLength(1);
    expect((await call(sandbox, 'GET', `/zones/${zoneId}/pagerules?order=name`)).status).toBe(400);
  });

  it('GET /zones/{zone_id}/pagerules/{pagerule_id}', async () => {
    expect((await call(sandbox, 'GET', `/zones/${zoneId}/pagerules/${pageRuleId}`)).status).toBe(200);
    expect((await call(sandbox, 'GET', `/zones/${zoneId}/pagerules/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('PUT /zones/{zone_id}/pagerules/{pagerule_id}', async () => {
    const ok = await call(sandbox, 'PUT', `/zones/${zoneId}/pagerules/${pageRuleId}`, {
      body: {
        targets: target('*example.com/img/*'),
        actions: [{ id: 'ssl', value: 'strict' }],
        status: 'disabled',
      },
    });
    expect(ok.body.result).toMatchObject({ status: 'disabled', actions: [{ id: 'ssl', value: 'strict' }] });
    const bad = await call(sandbox, 'PUT', `/zones/${zoneId}/pagerules/${pageRuleId}`, {
      body: { targets: target('*example.com/img/*'), actions: [{ id: 'ssl', value: 'maybe' }] },
    });
    expect(bad.status).toBe(400);
  });

  it('PATCH /zones/{zone_id}/pagerules/{pagerule_id}', async () => {
    const ok = await call(sandbox, 'PATCH', `/zones/${zoneId}/pagerules/${pageRuleId}`, {
      body: { status: 'active' },
    });
    expect(ok.body.result).toMatchObject({ status: 'active', actions: [{ id: 'ssl', value: 'strict' }] });
    expect(
      (await call(sandbox, 'PATCH', `/zones/${zoneId}/pagerules/${pageRuleId}`, { body: { status: 'on' } }))
        .status,
    ).toBe(400);
  });

  it('DELETE /zones/{zone_id}/pagerules/{pagerule_id}', async () => {
    expect((await call(sandbox, 'DELETE', `/zones/${zoneId}/pagerules/${pageRuleId}`)).body.result.id).toBe(
      pageRuleId,
    );
    expect((await call(sandbox, 'DELETE', `/zones/${zoneId}/pagerules/${pageRuleId}`)).status).toBe(404);
  });
});

describe('deleting', () => {
  it('DELETE /accounts/{account_id}/rules/lists/{list_id}', async () => {
    expect(
      (await call(sandbox, 'DELETE', `/accounts/${ACCOUNT_A}/rules/lists/${listId}`)).body.result.id,
    ).toBe(listId);
    expect((await call(sandbox, 'DELETE', `/accounts/${ACCOUNT_A}/rules/lists/${listId}`)).status).toBe(404);
  });

  it('DELETE /zones/{zone_id}', async () => {
    expect((await call(sandbox, 'DELETE', `/zones/${zoneId}`)).body.result.id).toBe(zoneId);
    expect((await call(sandbox, 'DELETE', `/zones/${zoneId}`)).status).toBe(404);
  });
});

it('exercised every documented operation with a success and an error', () => {
  const missing = openApiOperations().flatMap((operation) => {
    const seen = exercised.get(operation) ?? new Set();
    return ['2XX', '4XX'].filter((kind) => !seen.has(kind)).map((kind) => `${operation} ${kind}`);
  });
  expect(missing).toEqual([]);
  expect(openApiOperations()).toHaveLength(39);
});
