import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const secret = randomBytes(48).toString('base64url');
const keyBase64 = randomBytes(32).toString('base64');
const folders: string[] = [];
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'guardian-config-'));
  folders.push(folder);
  return folder;
};
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the defaults', () => {
    const config = loadConfig({ GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: keyBase64 });
    expect(config).toMatchObject({
      mode: 'production',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      tokenTtlSeconds: 43200,
      cloudflare: expect.objectContaining({ baseUrl: 'https://api.cloudflare.com/client/v4' }),
      serveWebApp: true,
      logLevel: 'info',
      trustProxy: false,
      loginRateLimit: { windowSeconds: 3600, maxFailuresPerEmail: 5, maxFailuresPerAddress: 30 },
    });
    expect(config.dataDir).toBe(join(process.cwd(), 'data'));
    expect(config.webDistDir).toMatch(/apps[/\\]web[/\\]dist$/);
    expect(config.encryptionKey.equals(Buffer.from(keyBase64, 'base64'))).toBe(true);
  });

  it('lists everything production is missing at once', () => {
    expect(problemsOf({})).toEqual([
      expect.stringContaining('GUARDIAN_SECRET is required in production mode'),
      expect.stringContaining('GUARDIAN_ENCRYPTION_KEY is required in production mode'),
    ]);
  });

  it('names each invalid variable', () => {
    const problems = problemsOf({
      GUARDIAN_SECRET: 'short',
      GUARDIAN_ENCRYPTION_KEY: 'not-a-key',
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      GUARDIAN_MODE: 'staging',
    });
    for (const name of [
      'GUARDIAN_SECRET',
      'GUARDIAN_ENCRYPTION_KEY',
      'PORT',
      'DATABASE_URL',
      'GUARDIAN_MODE',
    ]) {
      expect(problems.some((problem) => problem.startsWith(name))).toBe(true);
    }
  });

  it('refuses secrets with too few distinct characters and keys of one repeated byte, saying how to make good ones', () => {
    const weakSecret = problemsOf({ GUARDIAN_SECRET: 'a'.repeat(36), GUARDIAN_ENCRYPTION_KEY: keyBase64 });
    expect(weakSecret).toEqual([
      expect.stringMatching(/^GUARDIAN_SECRET: .*distinct.*openssl rand -base64 48/),
    ]);
    expect(
      problemsOf({ GUARDIAN_SECRET: 'abab'.repeat(10), GUARDIAN_ENCRYPTION_KEY: keyBase64 }),
    ).toHaveLength(1);
    for (const weakKey of [
      Buffer.alloc(32).toString('base64'),
      'b'.repeat(64),
      Buffer.alloc(32, 7).toString('hex'),
    ]) {
      expect(problemsOf({ GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: weakKey }), weakKey).toEqual([
        expect.stringMatching(/^GUARDIAN_ENCRYPTION_KEY: .*openssl rand -base64 32/),
      ]);
    }
    // What `openssl rand -hex 16` makes (32 hex digits) passes, as random keys do.
    expect(
      problemsOf({ GUARDIAN_SECRET: randomBytes(16).toString('hex'), GUARDIAN_ENCRYPTION_KEY: keyBase64 }),
    ).toEqual([]);
    expect(
      problemsOf({ GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('hex') }),
    ).toEqual([]);
  });

  it('reads the encryption key as hex or base64, and empty variables as unset', () => {
    const key = randomBytes(32);
    const env = { GUARDIAN_SECRET: secret, PORT: '', DATABASE_URL: '' };
    expect(
      loadConfig({ ...env, GUARDIAN_ENCRYPTION_KEY: key.toString('hex') }).encryptionKey.equals(key),
    ).toBe(true);
    const config = loadConfig({ ...env, GUARDIAN_ENCRYPTION_KEY: key.toString('base64') });
    expect(config.encryptionKey.equals(key)).toBe(true);
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('reads trust-proxy settings and login limits', () => {
    const base = { GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: keyBase64 };
    expect(loadConfig({ ...base, GUARDIAN_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, GUARDIAN_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, GUARDIAN_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, GUARDIAN_TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
    expect(loadConfig({ ...base, GUARDIAN_TRUST_PROXY: ' 10.0.0.5, fd00::/8 ,loopback' }).trustProxy).toBe(
      '10.0.0.5,fd00::/8,loopback',
    );
    const limited = loadConfig({
      ...base,
      GUARDIAN_LOGIN_WINDOW_SECONDS: '60',
      GUARDIAN_LOGIN_MAX_FAILURES_PER_EMAIL: '3',
      GUARDIAN_LOGIN_MAX_FAILURES_PER_ADDRESS: '7',
    });
    expect(limited.loginRateLimit).toEqual({
      windowSeconds: 60,
      maxFailuresPerEmail: 3,
      maxFailuresPerAddress: 7,
    });
  });

  it('runs one costly request at a time per person on the embedded database (one process serves every query), two on PostgreSQL', () => {
    const base = { GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: keyBase64 };
    expect(loadConfig(base).requestLimits.concurrentCostly).toBe(1);
    expect(
      loadConfig({ ...base, DATABASE_URL: 'postgres://guardian@db/guardian' }).requestLimits.concurrentCostly,
    ).toBe(2);
    expect(loadConfig({ ...base, GUARDIAN_RATE_LIMIT_CONCURRENT: '3' }).requestLimits.concurrentCostly).toBe(
      3,
    );
  });

  it('keeps answer caches unless GUARDIAN_ANSWER_CACHES=off', () => {
    const base = { GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: keyBase64 };
    expect(loadConfig(base).answerCaches).toBe(true);
    expect(loadConfig({ ...base, GUARDIAN_ANSWER_CACHES: 'on' }).answerCaches).toBe(true);
    expect(loadConfig({ ...base, GUARDIAN_ANSWER_CACHES: 'off' }).answerCaches).toBe(false);
    expect(problemsOf({ ...base, GUARDIAN_ANSWER_CACHES: 'no' })).toEqual([
      expect.stringMatching(/^GUARDIAN_ANSWER_CACHES: /),
    ]);
  });

  it('reads the notification webhook of the environment: its URL and whsec_ secret together, or neither', () => {
    const base = { GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: keyBase64 };
    const whsec = `whsec_${randomBytes(32).toString('base64')}`;
    expect(loadConfig(base).notificationWebhook).toBeUndefined();
    expect(
      loadConfig({
        ...base,
        GUARDIAN_NOTIFICATION_WEBHOOK_URL: 'https://siem.example/in',
        GUARDIAN_NOTIFICATION_WEBHOOK_SECRET: whsec,
        GUARDIAN_PUBLIC_URL: 'https://guardian.example/',
      }),
    ).toMatchObject({
      notificationWebhook: { url: 'https://siem.example/in', secret: whsec },
      publicUrl: 'https://guardian.example',
      notificationLoopbackHttp: false,
    });
    expect(
      problemsOf({
        ...base,
        GUARDIAN_NOTIFICATION_WEBHOOK_URL: 'http://siem.example/in',
        GUARDIAN_NOTIFICATION_WEBHOOK_SECRET: whsec,
      }),
    ).toEqual(['GUARDIAN_NOTIFICATION_WEBHOOK_URL: must be an https:// URL']);
    expect(problemsOf({ ...base, GUARDIAN_NOTIFICATION_WEBHOOK_URL: 'https://siem.example/in' })).toEqual([
      'GUARDIAN_NOTIFICATION_WEBHOOK_URL and GUARDIAN_NOTIFICATION_WEBHOOK_SECRET are set together (the webhook and its signing secret).',
    ]);
    expect(
      problemsOf({
        ...base,
        GUARDIAN_NOTIFICATION_WEBHOOK_URL: 'ftp://siem.example/in',
        GUARDIAN_NOTIFICATION_WEBHOOK_SECRET: 'not-a-secret',
      }),
    ).toEqual([
      'GUARDIAN_NOTIFICATION_WEBHOOK_URL: must be an https:// URL',
      'GUARDIAN_NOTIFICATION_WEBHOOK_SECRET: must be a Standard Webhooks secret: whsec_ and the base64 of at least 24 random bytes',
    ]);
  });

  it('refuses GUARDIAN_TRUST_PROXY=true, which believes what the client writes, and names the way out', () => {
    const base = { GUARDIAN_SECRET: secret, GUARDIAN_ENCRYPTION_KEY: keyBase64 };
    const [problem] = problemsOf({ ...base, GUARDIAN_TRUST_PROXY: 'true' });
    expect(problem).toMatch(
      /^GUARDIAN_TRUST_PROXY: "true" would believe the left-most X-Forwarded-For entry/,
    );
    expect(problem).toContain('the number of proxies in front of Guardian (e.g. 1) or their addresses/CIDRs');
    for (const invalid of ['yes', '10.0.0.0/33', '10.0.0.1,proxy.internal', '::1/129', '1.2.3.4/8/8']) {
      expect(problemsOf({ ...base, GUARDIAN_TRUST_PROXY: invalid }), invalid).toEqual([
        expect.stringMatching(
          /^GUARDIAN_TRUST_PROXY: ".+" is not a proxy address; set the number of proxies/,
        ),
      ]);
    }
  });

  it('generates the demo secrets once, readable by the owner only, and reuses them', () => {
    const dataDir = tempFolder();
    const first = loadConfig({ GUARDIAN_MODE: 'demo', GUARDIAN_DATA_DIR: dataDir });
    const second = loadConfig({ GUARDIAN_MODE: 'demo', GUARDIAN_DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    for (const file of ['guardian-secret', 'encryption-key']) {
      expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
    }
    expect(readFileSync(join(dataDir, 'guardian-secret'), 'utf8')).toBe(first.jwtSecret);
  });

  it('keeps the demo on its embedded database even when DATABASE_URL is set', () => {
    const env = { GUARDIAN_DATA_DIR: tempFolder(), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' };
    expect(loadConfig({ ...env, GUARDIAN_MODE: 'demo' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ ...env, GUARDIAN_MODE: 'test' }).databaseUrl).toBe(env.DATABASE_URL);
  });

  it('refuses a damaged demo key instead of silently replacing it', () => {
    const dataDir = tempFolder();
    writeFileSync(join(dataDir, 'encryption-key'), 'garbage');
    expect(() => loadConfig({ GUARDIAN_MODE: 'demo', GUARDIAN_DATA_DIR: dataDir })).toThrow(ConfigError);
  });

  it('gives tests fresh secrets and a silent log', () => {
    const config = loadConfig({ GUARDIAN_MODE: 'test' });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(config.encryptionKey).toHaveLength(32);
    expect(config.logLevel).toBe('silent');
    expect(config.serveWebApp).toBe(false);
  });
});
