import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  accountEndpoints,
  authEndpoints,
  banListEndpoints,
  dnsRecordEndpoints,
  firewallRuleEndpoints,
  zoneEndpoints,
  type Endpoint,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { TokenCipher } from '../crypto/token-cipher';
import { createLogger, redactUrl } from '../logger';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import { signTestToken } from '../test/context';
import { requestTo, type EndpointInput } from '../test/request';
import { apiRoutes, ownerOrder, sampleCall, seedEstate, sendSample, type Estate } from '../test/security';

/**
 * Secrets stay secret. Cloudflare API tokens are stored encrypted (AES-256-GCM, read from the row),
 * and neither they, nor session tokens, nor passwords appear in any answer or any log line of a full
 * run: every route used as its owner would, plus the failure paths (refused tokens, Cloudflare
 * outages, dropped connections, a token revoked at Cloudflare, tokens put in URLs). The log is the
 * production logger (`createLogger`, as runServer builds it) at trace level, so nothing is hidden by
 * the level. Every other suite is covered for answers too: the sandbox test context fails a file whose
 * answers contain a Cloudflare token. Config tests (config.test.ts) prove GUARDIAN_SECRET and
 * GUARDIAN_ENCRYPTION_KEY are required in production and generated only for the demo.
 */

const logLines: string[] = [];
const bodies: string[] = [];
let ctx: CloudflareTestContext;
let estate: Estate;
let second: Estate;
const secrets: string[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  ctx = await createCloudflareTestContext({
    config: { logLevel: 'trace' },
    deps: { logger: createLogger({ logLevel: 'trace' }, destination) },
    setup(app) {
      app.addHook('onSend', async (_request, reply, payload) => {
        if (typeof payload === 'string') bodies.push(payload);
        bodies.push(JSON.stringify(reply.getHeaders()));
        return payload;
      });
    },
  });
  estate = await seedEstate(ctx, await ctx.createUser({ password: 'first user passphrase 1' }), 'secret');
  second = await seedEstate(ctx, await ctx.createUser({ password: 'second user passphrase 2' }), 'secret2');
  secrets.push(
    estate.token,
    second.token,
    estate.user.token,
    second.user.token,
    estate.user.password,
    second.user.password,
  );
  await fullRun();
}, 120_000);
afterAll(() => ctx?.close());

async function fullRun() {
  const { app, sandbox } = ctx;
  /** Calls an endpoint as `headers` say (the estate's owner unless told otherwise). */
  const inject = (
    endpoint: Endpoint,
    input: EndpointInput = {},
    headers: Record<string, string> = estate.user.headers,
  ) => app.inject({ ...requestTo(endpoint, input), headers });
  const zone = { zone_id: estate.zone.zoneId };

  // Sign in for real, right and wrong.
  const { email, password } = estate.user;
  await inject(authEndpoints.login, { payload: { email, password } }, {});
  await inject(authEndpoints.login, { payload: { email, password: `${password}x` } }, {});
  // Every route as its owner would use it: reads, then writes, then deletes from the deepest path up.
  for (const route of ownerOrder(apiRoutes(app))) {
    if (route.url === authEndpoints.login.path) continue;
    // Its token is checked at rest below (the delete answers 204 without a body).
    if (route.method === 'DELETE' && route.url === accountEndpoints.remove.path) continue;
    const { url, sample } = await sampleCall(ctx, route, second);
    await sendSample(ctx, route, url, second.user.headers, sample);
  }
  // Tokens where they do not belong: in the URL and as the account's token, refused and accepted.
  await inject(
    accountEndpoints.list,
    { query: { token: estate.user.token, access_token: estate.token } },
    {},
  );
  await inject(authEndpoints.me, { query: { api_key: estate.token } });
  await inject(accountEndpoints.add, {
    payload: { account_name: 'Refused', token: 'refused-token-0123456789' },
  });
  secrets.push('refused-token-0123456789');
  // Cloudflare failing under a valid token: 5xx, a dropped connection, a 429, then the token revoked.
  sandbox.control.injectFault({ status: 500, times: 10 });
  await inject(accountEndpoints.add, { payload: { account_name: 'During outage', token: estate.token } });
  await inject(zoneEndpoints.sync);
  sandbox.control.clearFaults();
  sandbox.control.injectFault({ drop: true, times: 10 });
  await inject(zoneEndpoints.sync);
  await inject(dnsRecordEndpoints.list, { params: zone });
  sandbox.control.clearFaults();
  sandbox.control.injectFault({ status: 429, retryAfterSeconds: 600, times: 5 });
  await inject(firewallRuleEndpoints.list, { params: zone });
  sandbox.control.clearFaults();
  sandbox.control.setTokenStatus(estate.token, 'disabled');
  await inject(banListEndpoints.update);
  await inject(dnsRecordEndpoints.list, { params: zone });
  await inject(zoneEndpoints.sync);
  sandbox.control.setTokenStatus(estate.token, 'active');
}

describe('Cloudflare tokens at rest', () => {
  it('are stored AES-256-GCM encrypted, each with its own IV, readable only with the key', async () => {
    const rows = await ctx.db.query<{ token_encrypted: string; token_last4: string; account_id: string }>(
      'SELECT token_encrypted, token_last4, account_id FROM cloudflare_accounts WHERE account_id = ANY($1) ORDER BY id',
      [[estate.cfAccountId, second.cfAccountId]],
    );
    expect(rows).toHaveLength(2);
    const cipher = new TokenCipher(ctx.config.encryptionKey);
    for (const [row, token] of [
      [rows[0]!, estate.token],
      [rows[1]!, second.token],
    ] as const) {
      expect(row.token_encrypted).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
      expect(row.token_encrypted).not.toContain(token);
      expect(row.token_encrypted).not.toContain(Buffer.from(token).toString('base64'));
      expect(row.token_encrypted).not.toContain(Buffer.from(token).toString('hex'));
      expect(row.token_last4).toBe(token.slice(-4));
      expect(cipher.decrypt(row.token_encrypted)).toBe(token);
      expect(() => new TokenCipher(Buffer.alloc(32, 7)).decrypt(row.token_encrypted)).toThrow();
    }
    const [firstIv, secondIv] = rows.map((row) => row.token_encrypted.split(':')[1]);
    expect(firstIv).not.toBe(secondIv);
    // Nowhere else in the database either.
    const dump = JSON.stringify(
      await ctx.db.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`,
      ),
    );
    const tables = (JSON.parse(dump) as { table_name: string }[]).map((row) => row.table_name);
    for (const table of tables) {
      const content = JSON.stringify(await ctx.db.query(`SELECT * FROM "${table}"`));
      for (const secret of secrets) expect(content, `${table} holds a secret`).not.toContain(secret);
    }
  });
});

describe('secrets in answers', () => {
  it('the full run answered many requests, none with a Cloudflare token, a password or another user’s session', () => {
    expect(bodies.length).toBeGreaterThan(20);
    const all = bodies.join('\n');
    for (const secret of [
      estate.token,
      second.token,
      'refused-token-0123456789',
      estate.user.password,
      second.user.password,
    ]) {
      expect(all).not.toContain(secret);
    }
    // The account list shows the token masked: four stars and the last four characters.
    expect(all).toContain(`****${estate.token.slice(-4)}`);
  });
});

describe('secrets in logs', () => {
  it('the full run logged every request at trace level, without any secret', () => {
    expect(logLines.length).toBeGreaterThan(50);
    expect(logLines.some((line) => line.includes('"incoming request"'))).toBe(true);
    const leaks = logLines.filter((line) => secrets.some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
  });

  it('logs failures with their details, still without secrets', () => {
    const failures = logLines.filter((line) => /"level":(40|50)/.test(line));
    expect(failures.length).toBeGreaterThan(0);
  });

  it('redacts credentials put in a URL and keeps the rest', () => {
    expect(logLines.some((line) => line.includes('token=[REDACTED]&access_token=[REDACTED]'))).toBe(true);
    expect(redactUrl('/api/x?search=10.0&token=abc&Token=d&page=2&api_key')).toBe(
      '/api/x?search=10.0&token=[REDACTED]&Token=[REDACTED]&page=2&api_key',
    );
    expect(redactUrl('/api/x?%74oken=abc')).toBe('/api/x?%74oken=[REDACTED]');
    expect(redactUrl('/api/x')).toBe('/api/x');
  });
});

describe('the keys themselves', () => {
  it('production never falls back to generated or demo keys, even when the data folder holds some', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'guardian-keys-'));
    try {
      // What a demo run leaves behind in the folder.
      loadConfig({ GUARDIAN_MODE: 'demo', GUARDIAN_DATA_DIR: dataDir });
      expect(() => loadConfig({ GUARDIAN_DATA_DIR: dataDir })).toThrow(ConfigError);
      expect(() =>
        loadConfig({
          GUARDIAN_MODE: 'production',
          GUARDIAN_DATA_DIR: dataDir,
          GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
        }),
      ).toThrow(/GUARDIAN_ENCRYPTION_KEY is required/);
      expect(() =>
        loadConfig({
          GUARDIAN_MODE: 'production',
          GUARDIAN_DATA_DIR: dataDir,
          GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        }),
      ).toThrow(/GUARDIAN_SECRET is required/);
      // A short secret is refused rather than padded.
      expect(() =>
        loadConfig({
          GUARDIAN_SECRET: 'short',
          GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        }),
      ).toThrow(/GUARDIAN_SECRET/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the session key signs and the encryption key encrypts: a token signed with the encryption key is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = await signTestToken(
      { ...estate.user, level: 0 },
      { secret: new Uint8Array(ctx.config.encryptionKey), iat: now, exp: now + 60 },
    );
    const response = await ctx.app.inject({
      ...requestTo(authEndpoints.me),
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.statusCode).toBe(401);
  });
});
