import type { FastifyInstance } from 'fastify';
import { fail, ok, timestamp } from '../envelope';
import type { SandboxContext } from '../context';
import type { Zone } from '../state';
import { accountOfZone, authenticate, requireZone } from './tokens';
import { isRecord } from '../is-record';

/**
 * Per-setting zone settings (`/zones/{zone_id}/settings/{setting_id}`; the batch `/settings` reached
 * end of life on 2026-09-15) and a zone's Bot Management configuration (`/zones/{zone_id}/bot_management`),
 * the part the console's zone settings dialog uses. Only what differs from the defaults is stored.
 */

interface SettingRule {
  default: string;
  values: readonly string[];
  /** Values only an Enterprise zone may set. */
  enterpriseOnly?: readonly string[];
}

export const ZONE_SETTINGS: Record<string, SettingRule> = {
  always_use_https: { default: 'off', values: ['on', 'off'] },
  security_level: {
    default: 'medium',
    values: ['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack'],
    enterpriseOnly: ['off'],
  },
};

/** The setting's rule; undefined for a name Cloudflare does not know (own keys only, never `__proto__`). */
function settingRule(settingId: string): SettingRule | undefined {
  return Object.hasOwn(ZONE_SETTINGS, settingId) ? ZONE_SETTINGS[settingId] : undefined;
}

export function zoneSettingView(zone: Zone, settingId: string) {
  const rule = settingRule(settingId)!;
  const stored = zone.settings?.[settingId];
  return {
    id: settingId,
    value: stored?.value ?? rule.default,
    editable: true,
    modified_on: stored?.modifiedOn ?? null,
  };
}

/** Bot Fight Mode's configuration fields (Free plan), with Cloudflare's defaults for a new zone. */
const BOT_MANAGEMENT_DEFAULTS = {
  enable_js: false,
  fight_mode: false,
  ai_bots_protection: 'disabled',
  crawler_protection: 'disabled',
  is_robots_txt_managed: false,
};
type BotField = keyof typeof BOT_MANAGEMENT_DEFAULTS;

const BOT_FIELD_CHECKS: Record<BotField, (value: unknown) => boolean> = {
  enable_js: (value) => typeof value === 'boolean',
  fight_mode: (value) => typeof value === 'boolean',
  ai_bots_protection: (value) => ['block', 'disabled', 'only_on_ad_pages'].includes(value as string),
  crawler_protection: (value) => ['enabled', 'disabled'].includes(value as string),
  is_robots_txt_managed: (value) => typeof value === 'boolean',
};

export function botManagementView(zone: Zone) {
  return { ...BOT_MANAGEMENT_DEFAULTS, ...zone.botManagement, using_latest_model: true };
}

const unknownSetting = () => fail(404, 1006, 'Unrecognized zone setting name');

export function registerZoneSettingRoutes(app: FastifyInstance, context: SandboxContext): void {
  const { state } = context;

  app.get<{ Params: { zone_id: string; setting_id: string } }>(
    '/zones/:zone_id/settings/:setting_id',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      if (!settingRule(request.params.setting_id)) throw unknownSetting();
      return ok(zoneSettingView(zone, request.params.setting_id));
    },
  );

  app.patch<{ Params: { zone_id: string; setting_id: string }; Body: unknown }>(
    '/zones/:zone_id/settings/:setting_id',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const settingId = request.params.setting_id;
      const rule = settingRule(settingId);
      if (!rule) throw unknownSetting();
      const body = request.body;
      if (!isRecord(body)) throw fail(400, 1001, 'Invalid request body: expected a JSON object');
      const value = body.value;
      if (typeof value !== 'string' || !rule.values.includes(value)) {
        throw fail(400, 1007, `Invalid value for zone setting ${settingId}`);
      }
      if (rule.enterpriseOnly?.includes(value) && accountOfZone(state, zone).plan !== 'enterprise') {
        throw fail(400, 1007, `Invalid value for zone setting ${settingId}`);
      }
      zone.settings = { ...zone.settings, [settingId]: { value, modifiedOn: timestamp() } };
      state.changed();
      return ok(zoneSettingView(zone, settingId));
    },
  );

  app.get<{ Params: { zone_id: string } }>('/zones/:zone_id/bot_management', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    return ok(botManagementView(zone));
  });

  // A PUT of some fields changes those and keeps the others (Cloudflare's clean-up examples send a few).
  app.put<{ Params: { zone_id: string }; Body: unknown }>(
    '/zones/:zone_id/bot_management',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const body = request.body;
      if (!isRecord(body)) throw fail(400, 1001, 'Invalid request body: expected a JSON object');
      // Every field is checked before any is applied: a bad one changes nothing.
      for (const [field, value] of Object.entries(body)) {
        const check = Object.hasOwn(BOT_FIELD_CHECKS, field)
          ? BOT_FIELD_CHECKS[field as BotField]
          : undefined;
        if (!check) throw fail(400, 1001, `Invalid field for this zone's plan: ${field}`);
        if (!check(value)) throw fail(400, 1001, `Invalid value for ${field}`);
      }
      zone.botManagement = { ...zone.botManagement, ...body };
      state.changed();
      return ok(botManagementView(zone));
    },
  );
}
