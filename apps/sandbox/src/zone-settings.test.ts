import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Cloudflare from 'cloudflare';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './index';
import { ACCOUNT_A, ACCOUNT_B, ACCOUNT_FREE, call, seededSandbox } from './testing/harness';

// These operations are not in the OpenAPI subset: the answers are checked here and through the SDK.
const raw = { validate: false } as const;

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

describe('zone settings (one setting per call)', () => {
  it('answers the defaults, then what a PATCH set, with modified_on', async () => {
    sandbox = await seededSandbox();
    const zone = sandbox.control.addZone(ACCOUNT_A, 'example.com', { status: 'active' });
    const before = await call(sandbox, 'GET', `/zones/${zone.id}/settings/always_use_https`, raw);
    expect(before.status).toBe(200);
    expect(before.body.result).toEqual({
      id: 'always_use_https',
      value: 'off',
      editable: true,
      modified_on: null,
    });
    const level = await call(sandbox, 'GET', `/zones/${zone.id}/settings/security_level`, raw);
    expect(level.body.result.value).toBe('medium');

    const patched = await call(sandbox, 'PATCH', `/zones/${zone.id}/settings/always_use_https`, {
      ...raw,
      body: { value: 'on' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.result.value).toBe('on');
    const after = await call(sandbox, 'GET', `/zones/${zone.id}/settings/always_use_https`, raw);
    expect(after.body.result.value).toBe('on');
    expect(after.body.result).toMatchObject({ modified_on: expect.any(String) });
    expect(sandbox.control.getZoneSettings(zone.id)?.settings).toEqual({
      always_use_https: 'on',
      security_level: 'medium',
    });
  });

  it('refuses an unknown setting, a bad value and another account’s zone, changing nothing', async () => {
    sandbox = await seededSandbox();
    const zone = sandbox.control.addZone(ACCOUNT_A, 'example.com', { status: 'active' });
    const unknown = await call(sandbox, 'GET', `/zones/${zone.id}/settings/__proto__`, raw);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe(1006);
    const bad = await call(sandbox, 'PATCH', `/zones/${zone.id}/settings/security_level`, {
      ...raw,
      body: { value: 'panic' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe(1007);
    const missing = await call(sandbox, 'PATCH', `/zones/${zone.id}/settings/always_use_https`, {
      ...raw,
      body: {},
    });
    expect(missing.status).toBe(400);
    const foreign = await call(sandbox, 'PATCH', `/zones/${zone.id}/settings/always_use_https`, {
      ...raw,
      token: 'token-b',
      body: { value: 'on' },
    });
    expect(foreign.status).toBe(403);
    expect(sandbox.control.getZoneSettings(zone.id)?.settings.always_use_https).toBe('off');
    expect(sandbox.control.getZoneSettings(zone.id)?.settings.security_level).toBe('medium');
  });

  it("keeps security level 'off' for Enterprise zones", async () => {
    sandbox = await seededSandbox();
    const free = sandbox.control.addZone(ACCOUNT_FREE, 'free.com', { status: 'active' });
    const refused = await call(sandbox, 'PATCH', `/zones/${free.id}/settings/security_level`, {
      ...raw,
      token: 'token-free',
      body: { value: 'off' },
    });
    expect(refused.status).toBe(400);
    const enterprise = sandbox.control.addZone(ACCOUNT_A, 'big.com', { status: 'active' });
    const allowed = await call(sandbox, 'PATCH', `/zones/${enterprise.id}/settings/security_level`, {
      ...raw,
      body: { value: 'off' },
    });
    expect(allowed.body.result.value).toBe('off');
  });
});

describe('bot management', () => {
  it('answers Bot Fight Mode’s configuration; a PUT changes only the fields it sends', async () => {
    sandbox = await seededSandbox();
    const zone = sandbox.control.addZone(ACCOUNT_B, 'bots.com', { status: 'active' });
    const before = await call(sandbox, 'GET', `/zones/${zone.id}/bot_management`, {
      ...raw,
      token: 'token-b',
    });
    expect(before.body.result).toMatchObject({ fight_mode: false, ai_bots_protection: 'disabled' });
    const put = await call(sandbox, 'PUT', `/zones/${zone.id}/bot_management`, {
      ...raw,
      token: 'token-b',
      body: { fight_mode: true },
    });
    expect(put.status).toBe(200);
    expect(put.body.result).toMatchObject({ fight_mode: true, ai_bots_protection: 'disabled' });
    await call(sandbox, 'PUT', `/zones/${zone.id}/bot_management`, {
      ...raw,
      token: 'token-b',
      body: { ai_bots_protection: 'block' },
    });
    expect(sandbox.control.getZoneSettings(zone.id)?.bot_management).toMatchObject({
      fight_mode: true,
      ai_bots_protection: 'block',
    });
  });

  it('refuses a bad value or an unknown field, changing nothing', async () => {
    sandbox = await seededSandbox();
    const zone = sandbox.control.addZone(ACCOUNT_A, 'bots.com', { status: 'active' });
    for (const body of [
      { fight_mode: 'yes' },
      { ai_bots_protection: 'always' },
      { fight_mode: true, nope: 1 },
    ]) {
      const answer = await call(sandbox, 'PUT', `/zones/${zone.id}/bot_management`, { ...raw, body });
      expect(answer.status).toBe(400);
    }
    expect(sandbox.control.getZoneSettings(zone.id)?.bot_management.fight_mode).toBe(false);
  });
});

it('speaks what the cloudflare SDK expects', async () => {
  sandbox = await seededSandbox();
  const zone = sandbox.control.addZone(ACCOUNT_A, 'sdk.com', { status: 'active' });
  const client = new Cloudflare({ apiToken: 'token-a', baseURL: await sandbox.listen(), maxRetries: 0 });
  const edited = await client.zones.settings.edit('security_level', {
    zone_id: zone.id,
    value: 'under_attack',
  });
  expect(edited).toMatchObject({ id: 'security_level', value: 'under_attack' });
  expect(await client.zones.settings.get('security_level', { zone_id: zone.id })).toMatchObject({
    value: 'under_attack',
  });
  await client.botManagement.update({ zone_id: zone.id, fight_mode: true, ai_bots_protection: 'block' });
  expect(await client.botManagement.get({ zone_id: zone.id })).toMatchObject({
    fight_mode: true,
    ai_bots_protection: 'block',
  });
  await expect(client.zones.settings.get('always_use_https', { zone_id: '0'.repeat(32) })).rejects.toThrow(
    Cloudflare.NotFoundError,
  );
});

it('keeps the settings in its state file', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'sandbox-settings-')), 'state.json');
  sandbox = await seededSandbox({ stateFile: file });
  const zone = sandbox.control.addZone(ACCOUNT_A, 'kept.com', { status: 'active' });
  await call(sandbox, 'PATCH', `/zones/${zone.id}/settings/always_use_https`, {
    ...raw,
    body: { value: 'on' },
  });
  await call(sandbox, 'PUT', `/zones/${zone.id}/bot_management`, { ...raw, body: { fight_mode: true } });
  await sandbox.close();
  sandbox = await createSandbox({ rateLimit: false, stateFile: file });
  expect(sandbox.control.getZoneSettings(zone.id)).toMatchObject({
    settings: { always_use_https: 'on', security_level: 'medium' },
    bot_management: { fight_mode: true, ai_bots_protection: 'disabled' },
  });
});
