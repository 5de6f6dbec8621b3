import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_SECRET_HEADER, createSandbox, type Sandbox } from './index';
import { seededSandbox } from './testing/harness';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

describe('the HTTP control API', () => {
  it("answers only with this run's secret", async () => {
    sandbox = await seededSandbox();
    const base = (await sandbox.listen()).replace('/client/v4', '/__sandbox');
    expect(sandbox.controlSecret.length).toBeGreaterThanOrEqual(32);

    const without = await fetch(`${base}/snapshot`);
    expect(without.status).toBe(403);
    expect(await without.json()).toEqual({
      error: `The control API needs this run's secret in the ${CONTROL_SECRET_HEADER} header`,
    });
    const wrong = await fetch(`${base}/snapshot`, { headers: { [CONTROL_SECRET_HEADER]: 'guessed' } });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain('token-a');

    const right = await fetch(`${base}/snapshot`, {
      headers: { [CONTROL_SECRET_HEADER]: sandbox.controlSecret },
    });
    expect(right.status).toBe(200);
    expect(JSON.stringify(await right.json())).toContain('token-a');
  });

  it('refuses a request addressed to another name (DNS rebinding), even with the secret', async () => {
    sandbox = await seededSandbox();
    const reset = (host: string) =>
      sandbox.app.inject({
        method: 'POST',
        url: '/__sandbox/reset',
        headers: { host, [CONTROL_SECRET_HEADER]: sandbox.controlSecret },
      });
    for (const host of [
      'attacker.example:8787',
      'attacker.example',
      '127.0.0.1.attacker.example',
      '10.0.0.1',
    ]) {
      const answer = await reset(host);
      expect(answer.statusCode, host).toBe(403);
      expect(answer.json<{ error: string }>().error).toMatch(/localhost, 127\.0\.0\.1 or \[::1\] only/);
    }
    expect(sandbox.control.getAccounts()).toHaveLength(3);
    for (const host of ['localhost:8787', '127.0.0.1:8787', '[::1]:8787', 'localhost']) {
      expect((await reset(host)).statusCode, host).toBe(200);
    }
    expect(sandbox.control.getAccounts()).toHaveLength(0);
  });

  it('refuses the cross-site text/plain POST a web page can send without a preflight', async () => {
    sandbox = await seededSandbox();
    const base = (await sandbox.listen()).replace('/client/v4', '/__sandbox');
    const answer = await fetch(`${base}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://attacker.example' },
      body: '{}',
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(sandbox.control.getAccounts()).toHaveLength(3);
  });

  it('takes the secret it is given, and the in-process control needs none', async () => {
    sandbox = await createSandbox({ controlSecret: 'a-secret-chosen-by-the-caller-0123456789' });
    expect(sandbox.controlSecret).toBe('a-secret-chosen-by-the-caller-0123456789');
    sandbox.control.addAccount({ name: 'In process', plan: 'pro' });
    const answer = await sandbox.app.inject({
      method: 'GET',
      url: '/__sandbox/accounts',
      headers: { [CONTROL_SECRET_HEADER]: 'a-secret-chosen-by-the-caller-0123456789' },
    });
    expect(answer.json<{ name: string }[]>().map((account) => account.name)).toEqual(['In process']);
  });
});

describe('the state file', () => {
  it('is readable by its owner only, also when an earlier run left it readable by everyone', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sandbox-modes-'));
    try {
      const stateFile = join(directory, 'state.json');
      sandbox = await seededSandbox({ stateFile, persistDebounceMs: 10 });
      await sandbox.close();
      expect(statSync(stateFile).mode & 0o777).toBe(0o600);

      chmodSync(stateFile, 0o644);
      writeFileSync(`${stateFile}.tmp`, 'left over', { mode: 0o644 });
      sandbox = await createSandbox({ stateFile, persistDebounceMs: 10 });
      expect(statSync(stateFile).mode & 0o777).toBe(0o600);
      sandbox.control.addAccount({ name: 'Another', plan: 'pro' });
      await sandbox.close();
      expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    } finally {
      await sandbox.close();
      sandbox = await createSandbox();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
