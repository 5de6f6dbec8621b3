import { request as httpRequest } from 'node:http';
import { accountEndpoints, authEndpoints, healthEndpoints } from '@guardian/contract';
import { createSandbox, type Sandbox } from '@guardian/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config';
import { UsersRepository } from '../modules/users';
import { UsersService } from '../modules/users';
import { runServer, type RunningServer } from '../server';

/**
 * Graceful shutdown of the real server (runServer, listening on a port, as main.ts and the demo run
 * it): a request in flight, waiting on a slow Cloudflare, finishes and is answered while stop() waits;
 * new connections are refused at once; the database closes only after the last request, and the
 * onStop hook (the demo's sandbox) runs in between. The embedded database is used on both projects:
 * this is about the HTTP server, and runServer works in the default schema.
 */

let sandbox: Sandbox;
let server: RunningServer;
let baseUrl: string;
const events: string[] = [];

beforeAll(async () => {
  sandbox = await createSandbox({ rateLimit: false });
  const sandboxUrl = await sandbox.listen(0, '127.0.0.1');
  const base = loadConfig({ GUARDIAN_MODE: 'test' });
  const config: Config = {
    ...base,
    databaseUrl: undefined,
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    cloudflare: { ...base.cloudflare, baseUrl: sandboxUrl, timeoutMs: 10_000, maxRetries: 0 },
  };
  server = await runServer(config, {
    handleSignals: false,
    async onStop() {
      // The database is still open here: what the finished request wrote is there.
      const rows = await server.db.query<{ account_name: string }>(
        'SELECT account_name FROM cloudflare_accounts',
      );
      events.push(`onStop: ${rows.map((row) => row.account_name).join(',')}`);
    },
  });
  const address = server.app.server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${address.port}`;
  await new UsersService(new UsersRepository(server.db), config.passwordHashing).create({
    email: 'shutdown@example.com',
    password: 'shutdown passphrase',
    level: 1,
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

/** A plain HTTP request on its own connection (no keep-alive pool that could mask a refusal). */
function send(
  method: string,
  path: string,
  body?: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = httpRequest(
      `${baseUrl}${path}`,
      {
        method,
        agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('graceful shutdown', () => {
  it('finishes the request in flight, refuses new connections, then closes the database', async () => {
    const login = await send(authEndpoints.login.method, authEndpoints.login.path, {
      email: 'shutdown@example.com',
      password: 'shutdown passphrase',
    });
    expect(login.status).toBe(200);
    const authorization = `Bearer ${(JSON.parse(login.body) as { token: string }).token}`;

    const account = sandbox.control.addAccount({ name: 'Slow', plan: 'pro' });
    sandbox.control.addToken({ value: 'shutdown-slow-token-1234', accountIds: [account.id] });
    // Verifying the token at Cloudflare takes 1.5 s.
    sandbox.control.injectFault({ path: '/user/tokens/verify', latencyMs: 1_500 });

    const inFlight = send(
      accountEndpoints.add.method,
      accountEndpoints.add.path,
      { account_name: 'Slow', token: 'shutdown-slow-token-1234' },
      { authorization },
    ).then((response) => {
      events.push(`answered ${response.status}`);
      return response;
    });
    // Wait until the request is really waiting on Cloudflare.
    while (sandbox.control.callCount({ path: '/user/tokens/verify' }) === 0)
      await new Promise((resolve) => setTimeout(resolve, 20));

    const started = Date.now();
    const stopping = server.stop().then(() => events.push('stopped'));
    expect(server.stop()).toBe(server.stop());
    await new Promise((resolve) => setTimeout(resolve, 100));
    // No new connections while the old request finishes.
    await expect(send(healthEndpoints.check.method, healthEndpoints.check.path)).rejects.toThrow(
      /ECONNREFUSED|ECONNRESET|socket hang up/,
    );

    const response = await inFlight;
    expect(response.status).toBe(201);
    expect(JSON.parse(response.body)).toMatchObject({ account_name: 'Slow', token: '****1234' });
    await stopping;
    expect(Date.now() - started).toBeGreaterThan(1_000);
    // The handler had finished (its row is there) before onStop ran and the database closed.
    expect(events.filter((event) => event !== 'answered 201')).toEqual(['onStop: Slow', 'stopped']);
    // And the database is closed.
    await expect(server.db.query('SELECT 1')).rejects.toThrow();
  }, 30_000);
});
