import { refusalOf } from '../../test/request';
import {
  zoneSettingEndpoints,
  type UpdateZoneSettingsResponse,
  type ZoneSettingsState,
} from '@guardian/contract';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../test/context';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';
import { requestTo } from '../../test/request';
import { addOwnedZone } from '../../test/zone';

describe('zone settings', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));

  const read = (user: TestUser, zoneId: string) =>
    ctx.app.inject({
      ...requestTo(zoneSettingEndpoints.get, { params: { zone_id: zoneId } }),
      headers: user.headers,
    });
  const save = (user: TestUser, zoneId: string, payload: object) =>
    ctx.app.inject({
      ...requestTo(zoneSettingEndpoints.update, { params: { zone_id: zoneId }, payload }),
      headers: user.headers,
    });
  const atCloudflare = (zoneId: string) => ctx.sandbox.control.getZoneSettings(zoneId)!;
  const calls = (zoneId: string) =>
    ctx.sandbox.control
      .callLog({ path: new RegExp(`^/zones/${zoneId}/`) })
      .filter((call) => call.method !== 'GET')
      .map((call) => `${call.method} ${call.path.replace(`/zones/${zoneId}`, '')}`);

  it('reads every switch from Cloudflare', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice, 'free');
    const response = await read(alice, zoneId);
    expect(response.statusCode).toBe(200);
    expect(response.json<ZoneSettingsState>()).toEqual({
      alwaysUseHTTPS: false,
      botFightMode: false,
      underAttackMode: false,
      blockAITrainingBots: false,
      securityLevel: 'medium',
      unreadable: [],
    });
  });

  it('applies only the changed switches, each by its own call, and reads them back', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice, 'free');
    ctx.sandbox.control.resetCalls();
    const response = await save(alice, zoneId, { alwaysUseHTTPS: true, blockAITrainingBots: true });
    expect(response.statusCode).toBe(200);
    expect(response.json<UpdateZoneSettingsResponse>()).toEqual({
      applied: { alwaysUseHTTPS: true, blockAITrainingBots: true },
      failed: [],
    });
    expect(calls(zoneId).sort()).toEqual(['PATCH /settings/always_use_https', 'PUT /bot_management']);
    expect(atCloudflare(zoneId).settings.always_use_https).toBe('on');
    expect(atCloudflare(zoneId).bot_management).toMatchObject({
      ai_bots_protection: 'block',
      fight_mode: false,
    });
    expect(atCloudflare(zoneId).settings.security_level).toBe('medium');

    await save(alice, zoneId, { botFightMode: true });
    expect(await read(alice, zoneId).then((r) => r.json<ZoneSettingsState>())).toMatchObject({
      alwaysUseHTTPS: true,
      botFightMode: true,
      underAttackMode: false,
      blockAITrainingBots: true,
    });
  });

  it('Under Attack Mode sets the security level to under_attack and back to the level before', async () => {
    const { zoneId, token } = await addOwnedZone(ctx, alice, 'free');
    // The dashboard had set the level to high.
    await ctx.sandbox.app.inject({
      method: 'PATCH',
      url: `/client/v4/zones/${zoneId}/settings/security_level`,
      headers: { authorization: `Bearer ${token}` },
      payload: { value: 'high' },
    });
    expect((await save(alice, zoneId, { underAttackMode: true })).json()).toEqual({
      applied: { underAttackMode: true },
      failed: [],
    });
    expect(atCloudflare(zoneId).settings.security_level).toBe('under_attack');
    expect((await read(alice, zoneId)).json()).toMatchObject({
      underAttackMode: true,
      securityLevel: 'under_attack',
    });

    expect((await save(alice, zoneId, { underAttackMode: false })).json()).toEqual({
      applied: { underAttackMode: false },
      failed: [],
    });
    expect(atCloudflare(zoneId).settings.security_level).toBe('high');
  });

  it('turns Under Attack Mode set elsewhere off to medium, Cloudflare’s default', async () => {
    const { zoneId, token } = await addOwnedZone(ctx, alice, 'free');
    await ctx.sandbox.app.inject({
      method: 'PATCH',
      url: `/client/v4/zones/${zoneId}/settings/security_level`,
      headers: { authorization: `Bearer ${token}` },
      payload: { value: 'under_attack' },
    });
    await save(alice, zoneId, { underAttackMode: false });
    expect(atCloudflare(zoneId).settings.security_level).toBe('medium');
  });

  it('names the setting that failed; the others stay applied', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice, 'free');
    const fault = ctx.sandbox.control.injectFault({
      path: `/zones/${zoneId}/bot_management`,
      method: 'PUT',
      status: 503,
    });
    try {
      const response = await save(alice, zoneId, {
        alwaysUseHTTPS: true,
        botFightMode: true,
        underAttackMode: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<UpdateZoneSettingsResponse>()).toEqual({
        applied: { alwaysUseHTTPS: true, underAttackMode: true },
        failed: [
          {
            setting: 'botFightMode',
            message:
              'Bot Fight Mode could not be saved: Cloudflare is unavailable right now. Please try again.',
          },
        ],
      });
    } finally {
      ctx.sandbox.control.removeFault(fault.id);
    }
    expect(atCloudflare(zoneId).settings).toEqual({ always_use_https: 'on', security_level: 'under_attack' });
    expect(atCloudflare(zoneId).bot_management.fight_mode).toBe(false);
  });

  it('reads what it can and names what it could not', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice, 'free');
    const fault = ctx.sandbox.control.injectFault({
      path: `/zones/${zoneId}/bot_management`,
      method: 'GET',
      status: 503,
    });
    try {
      const response = await read(alice, zoneId);
      expect(response.statusCode).toBe(200);
      const reason = 'could not be read: Cloudflare is unavailable right now. Please try again.';
      expect(response.json<ZoneSettingsState>()).toMatchObject({
        alwaysUseHTTPS: false,
        underAttackMode: false,
        botFightMode: null,
        blockAITrainingBots: null,
        unreadable: [
          { setting: 'botFightMode', message: `Bot Fight Mode ${reason}` },
          { setting: 'blockAITrainingBots', message: `Block AI Training Bots ${reason}` },
        ],
      });
    } finally {
      ctx.sandbox.control.removeFault(fault.id);
    }
  });

  it("is 404 for another person's zone, and sends nothing", async () => {
    const { zoneId } = await addOwnedZone(ctx, alice, 'free');
    ctx.sandbox.control.resetCalls();
    expect((await read(bob, zoneId)).statusCode).toBe(404);
    const response = await save(bob, zoneId, { alwaysUseHTTPS: true });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Zone not found.' });
    expect(ctx.sandbox.control.callCount()).toBe(0);
  });

  it.each([
    [{}, 'Nothing to save: change a setting first.'],
    [{ alwaysUseHTTPS: 'yes' }, 'alwaysUseHTTPS'],
    [{ securityLevel: 'high' }, 'Unknown zone setting.'],
  ])('refuses %j with a 400 and sends nothing', async (payload, words) => {
    const { zoneId } = await addOwnedZone(ctx, alice, 'free');
    ctx.sandbox.control.resetCalls();
    const response = await save(alice, zoneId, payload);
    expect(response.statusCode).toBe(400);
    expect(refusalOf(response.json())).toContain(words);
    expect(ctx.sandbox.control.callCount()).toBe(0);
  });
});
