import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('where the console listens', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'guardian-host-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const demo = (env: Record<string, string> = {}) =>
    loadConfig({ GUARDIAN_MODE: 'demo', GUARDIAN_DATA_DIR: dataDir, ...env }).host;

  it('is this machine only in the demo, whose passwords are published, unless HOST says otherwise', () => {
    expect(demo()).toBe('127.0.0.1');
    // `HOST=` in a compose file means "not set".
    expect(demo({ HOST: '' })).toBe('127.0.0.1');
    expect(demo({ HOST: '0.0.0.0' })).toBe('0.0.0.0');
    expect(demo({ HOST: '::1' })).toBe('::1');
  });

  it('is every interface in production by default (in a container, the published port decides)', () => {
    const production = loadConfig({
      GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
      GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    expect(production.host).toBe('0.0.0.0');
  });
});
