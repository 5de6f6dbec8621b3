import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_SECRET_HEADER, createSandbox, type Sandbox } from './index';
import { ACCOUNT_A, ACCOUNT_B, call, items, seededSandbox } from './testing/harness';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

describe('API tokens', () => {
  it('verifies active, disabled and expired tokens, but only active ones reach resources', async () => {
    sandbox = await seededSandbox();
    sandbox.control.setTokenStatus('token-b', 'disabled');
    const disabled = await call(sandbox, 'GET', '/user/tokens/verify', { token: 'token-b' });
    expect(disabled.body.result.status).toBe('disabled');
    expect((await call(sandbox, 'GET', '/zones', { token: 'token-b' })).status).toBe(401);
    sandbox.control.setTokenStatus('token-b', 'expired');
    const expired = await call(sandbox, 'GET', '/user/tokens/verify', { token: 'token-b' });
    expect(expired.body.result).toMatchObject({ status: 'expired' });
    expect(typeof expired.body.result.expires_on).toBe('string');
    const refused = await call(sandbox, 'GET', '/accounts', { token: 'token-b' });
    expect(refused.body.errors[0]).toEqual({ code: 10000, message: 'Authentication error' });
    sandbox.control.setTokenStatus('token-b', 'active');
    expect((await call(sandbox, 'GET', '/zones', { token: 'token-b' })).status).toBe(200);
  });

  it('keeps user and account tokens to their own verify endpoint and accounts', async () => {
    sandbox = await seededSandbox();
    expect((await call(sandbox, 'GET', '/user/tokens/verify', { token: 'token-acct' })).status).toBe(401);
    expect(
      (await call(sandbox, 'GET', `/accounts/${ACCOUNT_B}/tokens/verify`, { token: 'token-acct' })).status,
    ).toBe(401);
    const accounts = await call(sandbox, 'GET', '/accounts', { token: 'token-acct' });
    expect(items(accounts.body.result).map((account) => account.id)).toEqual([ACCOUNT_A]);
    expect(
      (await call(sandbox, 'GET', `/accounts/${ACCOUNT_B}/rules/lists`, { token: 'token-acct' })).status,
    ).toBe(403);
    expect((await call(sandbox, 'GET', '/accounts/not-an-id/rules/lists')).status).toBe(404);
  });

  it('answers malformed Authorization headers like Cloudflare', async () => {
    sandbox = await seededSandbox();
    const response = await sandbox.app.inject({
      method: 'GET',
      url: '/client/v4/zones',
      headers: { authorization: 'Token abc' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ code: 6003, error_chain: [{ code: 6111 }] });
    const malformedJson = await sandbox.app.inject({
      method: 'POST',
      url: '/client/v4/zones',
      headers: { authorization: 'Bearer token-a', 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformedJson.statusCode).toBe(400);
    expect(malformedJson.json().errors[0].code).toBe(6007);
    const noRoute = await sandbox.app.inject({ method: 'GET', url: '/client/v4/nothing/here' });
    expect(noRoute.json()).toMatchObject({ success: false, errors: [{ code: 7000 }], result: null });
  });
});

describe('rate limit', () => {
  it('answers 429 with retry-after past the limit, per token, until the window ends', async () => {
    sandbox = await seededSandbox({ rateLimit: { limit: 3, windowMs: 300 } });
    for (let i = 0; i < 3; i++) expect((await call(sandbox, 'GET', '/zones')).status).toBe(200);
    const limited = await call(sandbox, 'GET', '/zones');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.body.errors[0].code).toBe(10429);
    expect((await call(sandbox, 'GET', '/zones', { token: 'token-b' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 320));
    expect((await call(sandbox, 'GET', '/zones')).status).toBe(200);
  });
});

describe('fault injection', () => {
  it('forces statuses for the next N matching calls, by path and method', async () => {
    sandbox = await seededSandbox();
    sandbox.control.injectFault({ path: '/zones', method: 'GET', status: 503, times: 2 });
    expect((await call(sandbox, 'GET', '/zones', { validate: false })).status).toBe(503);
    expect((await call(sandbox, 'GET', '/accounts')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/zones', { validate: false })).status).toBe(503);
    expect((await call(sandbox, 'GET', '/zones')).status).toBe(200);
    expect(sandbox.control.faults()).toEqual([]);

    sandbox.control.injectFault({ path: /\/dns_records$/, status: 429, retryAfterSeconds: 7, times: 1 });
    const zone = sandbox.control.addZone(ACCOUNT_A, 'example.com');
    const limited = await call(sandbox, 'GET', `/zones/${zone.id}/dns_records`);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
  });

  it('affects a fraction of calls and adds latency', async () => {
    sandbox = await seededSandbox({ faultSeed: 42 });
    const never = sandbox.control.injectFault({ path: '/accounts', status: 500, fraction: 0 });
    for (let i = 0; i < 20; i++) expect((await call(sandbox, 'GET', '/accounts')).status).toBe(200);
    sandbox.control.removeFault(never.id);
    sandbox.control.injectFault({ path: '/accounts', status: 502, fraction: 0.5 });
    const statuses = await Promise.all(
      Array.from(
        { length: 200 },
        async () => (await call(sandbox, 'GET', '/accounts', { validate: false })).status,
      ),
    );
    const failed = statuses.filter((status) => status === 502).length;
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
    sandbox.control.clearFaults();

    sandbox.control.injectFault({ path: '/zones', latencyMs: 120, times: 1 });
    const started = performance.now();
    expect((await call(sandbox, 'GET', '/zones')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('drops connections without answering', async () => {
    sandbox = await seededSandbox();
    const baseUrl = await sandbox.listen();
    sandbox.control.injectFault({ path: '/zones', drop: true, times: 1 });
    await expect(
      fetch(`${baseUrl}/zones`, { headers: { authorization: 'Bearer token-a' } }),
    ).rejects.toThrow();
    const after = await fetch(`${baseUrl}/zones`, { headers: { authorization: 'Bearer token-a' } });
    expect(after.status).toBe(200);
  });
});

describe('call log', () => {
  it('records method, path, token and status of every call', async () => {
    sandbox = await seededSandbox();
    await call(sandbox, 'GET', '/zones?per_page=5');
    await call(sandbox, 'GET', '/accounts', { token: 'token-b' });
    await call(sandbox, 'POST', '/zones', { body: { account: { id: ACCOUNT_A }, name: 'example.com' } });
    expect(sandbox.control.callCount()).toBe(3);
    expect(sandbox.control.callCount({ method: 'GET' })).toBe(2);
    expect(sandbox.control.callCount({ path: /^\/zones/ })).toBe(2);
    expect(sandbox.control.callCount({ token: 'token-b' })).toBe(1);
    expect(sandbox.control.callLog()[0]).toMatchObject({
      method: 'GET',
      path: '/zones',
      query: 'per_page=5',
      token: 'token-a',
      status: 200,
    });
    sandbox.control.resetCalls();
    expect(sandbox.control.callCount()).toBe(0);
  });
});

describe('persistence', () => {
  it('survives a restart through the state file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
    const stateFile = join(directory, 'state.json');
    try {
      sandbox = await seededSandbox({ stateFile, persistDebounceMs: 10 });
      const zone = sandbox.control.addZone(ACCOUNT_A, 'example.com', { status: 'active' });
      await call(sandbox, 'POST', `/zones/${zone.id}/dns_records`, {
        body: { type: 'A', name: 'www', content: '192.0.2.1' },
      });
      const list = sandbox.control.addList(ACCOUNT_A, { name: 'kept', kind: 'ip' });
      sandbox.control.seedListItems(ACCOUNT_A, list.id, [
        { ip: '192.0.2.1', comment: 'a' },
        { ip: '2001:db8::/32' },
      ]);
      await call(
        sandbox,
        'PUT',
        `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
        {
          body: { rules: [{ action: 'block', expression: 'ip.src in $kept' }] },
        },
      );
      const itemsBefore = sandbox.control.getListItems(ACCOUNT_A, list.id);
      await sandbox.close();

      sandbox = await createSandbox({ stateFile });
      expect(sandbox.control.getZones(ACCOUNT_A).map((z) => [z.name, z.status])).toEqual([
        ['example.com', 'active'],
      ]);
      expect(sandbox.control.getListItems(ACCOUNT_A, list.id)).toEqual(itemsBefore);
      expect(sandbox.control.getDnsRecords(zone.id)).toHaveLength(1);
      expect(sandbox.control.getRules(zone.id)).toHaveLength(1);
      expect((await call(sandbox, 'GET', '/zones')).status).toBe(200);

      const copy = join(directory, 'copy.json');
      await sandbox.control.persistTo(copy);
      await sandbox.close();
      sandbox = await createSandbox({ stateFile: copy });
      expect(sandbox.control.snapshot().lists[0]).toMatchObject({
        name: 'kept',
        num_items: 2,
        num_referencing_filters: 1,
      });
    } finally {
      // Close here: the state file must not be written after its directory is gone.
      await sandbox.close();
      sandbox = await createSandbox();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('control over HTTP', () => {
  it('drives a separately running sandbox under /__sandbox', async () => {
    sandbox = await createSandbox();
    const base = (await sandbox.listen()).replace('/client/v4', '/__sandbox');
    const secret = { [CONTROL_SECRET_HEADER]: sandbox.controlSecret };
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...secret },
        body: JSON.stringify(body),
      });
    const account = (await (await post('/accounts', { name: 'Remote', plan: 'pro' })).json()) as {
      id: string;
    };
    expect((await post('/tokens', { value: 'remote-token', accountIds: [account.id] })).status).toBe(200);
    const zone = (await (await post(`/accounts/${account.id}/zones`, { name: 'remote.com' })).json()) as {
      id: string;
    };
    expect((await post(`/zones/${zone.id}/activate`, {})).status).toBe(200);
    const list = (await (
      await post(`/accounts/${account.id}/lists`, { name: 'remote', kind: 'ip' })
    ).json()) as { id: string };
    expect(
      await (await post(`/accounts/${account.id}/lists/${list.id}/items`, [{ ip: '192.0.2.1' }])).json(),
    ).toEqual({ num_items: 1 });
    expect((await post('/faults', { pathRegex: '^/zones$', status: 500, times: 1 })).status).toBe(200);
    expect((await post('/faults', { status: 418 })).status).toBe(400);

    const api = base.replace('/__sandbox', '/client/v4');
    const failing = await fetch(`${api}/zones`, { headers: { authorization: 'Bearer remote-token' } });
    expect(failing.status).toBe(500);
    const zones = (await (
      await fetch(`${api}/zones`, { headers: { authorization: 'Bearer remote-token' } })
    ).json()) as {
      result: { status: string }[];
    };
    expect(zones.result.map((z) => z.status)).toEqual(['active']);
    const calls = (await (await fetch(`${base}/calls?path=/zones`, { headers: secret })).json()) as {
      count: number;
    };
    expect(calls.count).toBe(2);
    expect((await fetch(`${base}/snapshot`, { headers: secret })).status).toBe(200);
    expect(await (await fetch(`${base}/health`, { headers: secret })).json()).toEqual({ ok: true });
  });
});
