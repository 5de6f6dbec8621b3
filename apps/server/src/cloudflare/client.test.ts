import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, type Sandbox } from '@guardian/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../app-error';
import { waitForBulkOperation } from './bulk-operations';
import { CloudflareGateway, type CloudflareOptions } from './client';
import { cloudflareErrorToAppError } from './errors';

/** A gateway to the sandbox at `baseUrl` with short waits, as tests want it. */
function testGateway(baseUrl: string, options: Partial<CloudflareOptions> = {}): CloudflareGateway {
  return new CloudflareGateway({
    baseUrl,
    timeoutMs: 1_000,
    maxRetries: 2,
    rateLimit: { requests: 10_000, windowMs: 60_000 },
    maxRetryAfterMs: 3_000,
    ...options,
  });
}

/** The error a call ends with, as the browser would get it. */
async function failure(call: Promise<unknown>): Promise<AppError> {
  const err = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  const mapped = cloudflareErrorToAppError(err);
  if (!mapped) throw new Error(`expected a Cloudflare error, got ${String(err)}`);
  return mapped;
}

describe('the Cloudflare client against the sandbox', () => {
  let sandbox: Sandbox;
  let baseUrl: string;
  let accountId: string;
  const token = 'client-test-token';

  const gateway = (options: Partial<CloudflareOptions> = {}) => testGateway(baseUrl, options);

  beforeAll(async () => {
    sandbox = await createSandbox({ rateLimit: { limit: 6, windowMs: 1_000 } });
    baseUrl = await sandbox.listen(0, '127.0.0.1');
    accountId = sandbox.control.addAccount({ name: 'Client test', plan: 'enterprise' }).id;
    sandbox.control.addToken({ value: token, accountIds: [accountId] });
    sandbox.control.addZone(accountId, 'client-test.com', { status: 'active' });
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.control.clearFaults();
    sandbox.control.resetCalls();
    sandbox.control.resetRateLimits();
  });

  it('reads through the official SDK', async () => {
    const zones = await gateway()
      .client(token)
      .zones.list({ account: { id: accountId } });
    expect(zones.result.map((zone) => zone.name)).toEqual(['client-test.com']);
  });

  it('waits out a 429 as long as retry-after asks, then succeeds', async () => {
    sandbox.control.injectFault({ path: /\/zones$/, status: 429, times: 1, retryAfterSeconds: 1 });
    const started = Date.now();
    await gateway().client(token).zones.list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(sandbox.control.callCount({ path: /\/zones$/ })).toBe(2);
  });

  it('does not hang on a retry-after longer than a person would wait', async () => {
    sandbox.control.injectFault({ path: /\/zones$/, status: 429, times: 1, retryAfterSeconds: 300 });
    const started = Date.now();
    const err = await failure(gateway().client(token).zones.list());
    // Answered at once, not after the 300 s asked: a bound far from both, so a busy machine cannot trip it.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(err.code).toBe('RATE_LIMITED');
    expect(sandbox.control.callCount({ path: /\/zones$/ })).toBe(1);
  });

  it('retries a short 5xx burst and reports a long one as Cloudflare being unavailable', async () => {
    sandbox.control.injectFault({ path: /\/zones$/, status: 502, times: 2 });
    await gateway().client(token).zones.list();
    expect(sandbox.control.callCount({ path: /\/zones$/ })).toBe(3);

    sandbox.control.injectFault({ path: /\/zones$/, status: 503, times: 10 });
    const err = await failure(gateway({ maxRetries: 1 }).client(token).zones.list());
    expect(err.code).toBe('UPSTREAM');
    expect(err.message).toBe('Cloudflare is unavailable right now. Please try again.');
  });

  it('times out a call that does not answer, and retries a dropped connection', async () => {
    sandbox.control.injectFault({ path: /\/zones$/, latencyMs: 1_500, times: 5 });
    const err = await failure(gateway({ timeoutMs: 300, maxRetries: 1 }).client(token).zones.list());
    expect(err.code).toBe('UPSTREAM');

    sandbox.control.clearFaults();
    sandbox.control.injectFault({ path: /\/zones$/, drop: true, times: 1 });
    const zones = await gateway().client(token).zones.list();
    expect(zones.result).toHaveLength(1);
  });

  it('keeps under the per-token rate limit instead of hitting it', async () => {
    // The sandbox allows 6 calls a second for this suite; the throttle spaces 7 calls to 3 a second,
    // a margin wide enough that network delays cannot bunch calls into one of the sandbox's windows.
    const client = gateway({ rateLimit: { requests: 3, windowMs: 1_000 } }).client(token);
    const started = Date.now();
    for (let i = 0; i < 7; i++) await client.zones.list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_950);
    expect(sandbox.control.callLog({ path: /\/zones$/ }).every((call) => call.status !== 429)).toBe(true);
  });

  it("carries Cloudflare's message for bad input", async () => {
    const err = await failure(
      gateway().client(token).rules.lists.create({ account_id: accountId, kind: 'ip', name: 'Bad Name!' }),
    );
    expect(err.status).toBe(400);
    expect(err.message.length).toBeGreaterThan(0);
  });

  it('waits for a list bulk operation and reports a failed one with its reason', async () => {
    const cf = gateway().client(token);
    const list = await cf.rules.lists.create({ account_id: accountId, kind: 'ip', name: 'client_test_list' });
    const ok = await cf.rules.lists.items.create(list.id, {
      account_id: accountId,
      body: [{ ip: '192.0.2.1' }],
    });
    await waitForBulkOperation(cf, accountId, ok.operation_id);
    expect(sandbox.control.getListItems(accountId, list.id).map((item) => item.ip)).toEqual(['192.0.2.1']);

    const bad = await cf.rules.lists.items.create(list.id, {
      account_id: accountId,
      body: [{ ip: 'not-an-ip' }],
    });
    await expect(waitForBulkOperation(cf, accountId, bad.operation_id)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('not-an-ip'),
    });
  });
});

describe('what the client trusts of a hostile Cloudflare', () => {
  let sandbox: Sandbox;
  let baseUrl: string;
  let accountId: string;
  let zoneId: string;
  const token = 'cfut_hostileTestToken0123456789abcdefghijkl';

  const gateway = (options: Partial<CloudflareOptions> = {}) => testGateway(baseUrl, options);

  beforeAll(async () => {
    sandbox = await createSandbox({ rateLimit: false });
    baseUrl = await sandbox.listen(0, '127.0.0.1');
    accountId = sandbox.control.addAccount({ name: 'Hostile test', plan: 'enterprise' }).id;
    sandbox.control.addToken({ value: token, accountIds: [accountId] });
    zoneId = sandbox.control.addZone(accountId, 'hostile-test.com', { status: 'active' }).id;
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.control.clearFaults();
    sandbox.control.resetCalls();
  });

  it('reads no more than its answer size: a larger answer is a clear 502, never retried', async () => {
    sandbox.control.injectFault({ path: /\/zones$/, answer: 'oversized', bytes: 4_000_000 });
    const err = await failure(
      gateway({ maxAnswerBytes: 1024 * 1024 })
        .client(token)
        .zones.list(),
    );
    expect(err.code).toBe('UPSTREAM');
    expect(err.message).toBe("Cloudflare's answer was larger than the 1 MB the console reads.");
    expect(sandbox.control.callCount({ path: /\/zones$/ })).toBe(1);
  });

  it('answers a clear 502 for truncated JSON', async () => {
    sandbox.control.injectFault({ path: /\/zones$/, answer: 'truncated' });
    const err = await failure(gateway().client(token).zones.list());
    expect(err.code).toBe('UPSTREAM');
    expect(err.message).toBe("Cloudflare's answer could not be read (it is not complete JSON).");
  });

  it("never passes on a credential in Cloudflare's error text, and caps its length", async () => {
    sandbox.control.injectFault({ path: /\/zones$/, answer: 'echo' });
    const err = await failure(gateway().client(token).zones.list());
    expect(err.status).toBe(400);
    expect(err.message).not.toContain(token);
    expect(err.message).not.toMatch(/cfut_|Bearer [^[]/);
    expect(err.message.length).toBeLessThanOrEqual(300);
    expect(err.message).toMatch(/^Invalid request headers/);
  });

  it('blocks the token for at most 5 minutes after a 429 asking for an hour, and says so', async () => {
    sandbox.control.injectFault({ path: /\/zones$/, status: 429, retryAfterSeconds: 3600, times: 1 });
    const client = gateway().client(token);
    const err = await failure(client.zones.list());
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.details.retryAfterSeconds).toBe(300);
    expect(err.message).toBe('Cloudflare is rate limiting this account. Please try again in 5 minutes.');
    // The next call is refused locally, with the capped wait, not the hour Cloudflare asked for.
    const next = await failure(client.zones.list());
    expect(next.details.retryAfterSeconds).toBeLessThanOrEqual(300);
    expect(sandbox.control.callCount({ path: /\/zones$/ })).toBe(1);
  });

  it('holds one call to its deadline, retries and waits included, and says so', async () => {
    // Without the deadline, 21 tries of 600 ms and their backoffs would take minutes; within 1.5 s
    // there is room for two tries at most (a busy machine only leaves room for fewer).
    sandbox.control.injectFault({ path: /\/zones$/, latencyMs: 700 });
    const started = Date.now();
    const err = await failure(
      gateway({ timeoutMs: 600, deadlineMs: 1_500, maxRetries: 20 }).client(token).zones.list(),
    );
    expect(sandbox.control.callCount({ path: /\/zones$/ })).toBeLessThanOrEqual(2);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(err.code).toBe('UPSTREAM');
    expect(err.message).toMatch(/did not answer in time \(the console waits at most 2 seconds/);

    // An answer whose status came at once but whose body trickles over a minute is cut at the deadline.
    sandbox.control.clearFaults();
    sandbox.control.injectFault({ path: /\/zones$/, answer: 'slow', trickleMs: 60_000 });
    const slowStart = Date.now();
    const slow = await failure(gateway({ timeoutMs: 800, deadlineMs: 1_000 }).client(token).zones.list());
    expect(Date.now() - slowStart).toBeLessThan(15_000);
    expect(slow.code).toBe('UPSTREAM');
  });

  it('never sends a create twice blindly: a POST that failed with a 5xx or a lost connection is not retried', async () => {
    const cf = gateway().client(token);
    sandbox.control.injectFault({ path: /\/dns_records$/, method: 'POST', status: 502, times: 1 });
    const err = await failure(
      cf.dns.records.create({ zone_id: zoneId, type: 'A', name: 'once', content: '192.0.2.1', ttl: 1 }),
    );
    expect(err.code).toBe('UPSTREAM');
    sandbox.control.injectFault({ path: /\/rules\/lists$/, method: 'POST', drop: true, times: 1 });
    await failure(cf.rules.lists.create({ account_id: accountId, kind: 'ip', name: 'once_list' }));
    sandbox.control.injectFault({ path: /\/pagerules$/, method: 'POST', status: 503, times: 1 });
    await failure(
      cf.pageRules.create({
        zone_id: zoneId,
        targets: [{ target: 'url', constraint: { operator: 'matches', value: 'hostile-test.com/a/*' } }],
        actions: [{ id: 'always_use_https' }],
      }),
    );
    const posts = sandbox.control.callLog().filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.path.replace(/[0-9a-f]{32}/g, ':id'))).toEqual([
      '/zones/:id/dns_records',
      '/accounts/:id/rules/lists',
      '/zones/:id/pagerules',
    ]);
    // Reads, replacements and deletes are repeatable: those are retried.
    sandbox.control.injectFault({ path: /\/dns_records$/, method: 'GET', status: 502, times: 2 });
    await cf.dns.records.list({ zone_id: zoneId });
    expect(sandbox.control.callCount({ path: /\/dns_records$/, method: 'GET' })).toBe(3);
  });
});

describe('the cloudflare SDK', () => {
  it('is pinned to the exact version the lock file installs (its minor releases have broken APIs)', () => {
    const root = join(import.meta.dirname, '..', '..', '..', '..');
    const manifest = JSON.parse(readFileSync(join(root, 'apps/server/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    const pinned = manifest.dependencies.cloudflare;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages['node_modules/cloudflare']?.version).toBe(pinned);
  });
});

describe('the retired Firewall Rules API', () => {
  it('is never called: no server code uses the firewall.rules / filters resources or paths', () => {
    const root = join(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
          const code = readFileSync(path, 'utf8');
          if (/\.firewall\.(rules|filters)|['"`]\/?firewall\/rules|\/filters['"`/]/.test(code))
            offenders.push(path);
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
