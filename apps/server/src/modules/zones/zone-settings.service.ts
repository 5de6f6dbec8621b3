import {
  ZONE_SETTING_KEYS,
  ZONE_SETTING_LABELS,
  type UpdateZoneSettingsRequest,
  type UpdateZoneSettingsResponse,
  type ZoneSettingKey,
  type ZoneSettingProblem,
  type ZoneSettingsState,
} from '@guardian/contract';
import type Cloudflare from 'cloudflare';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { AppError } from '../../app-error';
import { cloudflareErrorToAppError } from '../../cloudflare';
import { usableAnswer } from '../../cloudflare/answers';
import type { OwnedZones } from './owned-zone';

const SECURITY_LEVELS = ['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack'] as const;
type SecurityLevel = (typeof SECURITY_LEVELS)[number];
/** Cloudflare's default level: what Under Attack Mode turned off goes back to when the earlier one is unknown. */
const DEFAULT_SECURITY_LEVEL: SecurityLevel = 'medium';

/** Cloudflare's answers, checked before use (see cloudflare/answers.ts). */
const onOffSettingAnswer = z.looseObject({ id: z.literal('always_use_https'), value: z.enum(['on', 'off']) });
const securityLevelAnswer = z.looseObject({
  id: z.literal('security_level'),
  value: z.enum(SECURITY_LEVELS),
});
const botManagementAnswer = z.looseObject({
  fight_mode: z.boolean().nullish(),
  ai_bots_protection: z.string().max(50).nullish(),
});

/** Zones whose level before Under Attack Mode is remembered (the oldest are forgotten). */
const REMEMBERED_LEVELS = 10_000;

/** Cloudflare's reason for a failed call, in the console's words; anything else is a bug and thrown on. */
function reasonOf(err: unknown): string {
  if (err instanceof AppError) return err.message;
  const appError = cloudflareErrorToAppError(err);
  if (!appError) throw err;
  return appError.message;
}

/**
 * The zone settings dialog's four switches, live at Cloudflare, each through its own calls: the zone
 * settings `always_use_https` and `security_level`, and the zone's Bot Management configuration
 * (`fight_mode`, `ai_bots_protection`). A setting that fails is reported by name; the others still
 * apply.
 */
export class ZoneSettingsService {
  /**
   * The level a zone had before this process turned Under Attack Mode on, to go back to when it is
   * turned off (Cloudflare keeps no history). Unknown after a restart, or when Under Attack Mode was
   * turned on elsewhere: then Cloudflare's default, medium.
   */
  private readonly levelsBeforeAttack = new LRUCache<string, SecurityLevel>({ max: REMEMBERED_LEVELS });

  constructor(private readonly ownedZones: OwnedZones) {}

  async get(userId: number, zoneId: string): Promise<ZoneSettingsState> {
    const { cf, zone } = await this.ownedZones.require(userId, zoneId);
    const id = zone.zoneId;
    const [https, level, bots] = await Promise.allSettled([
      readAlwaysUseHttps(cf, id),
      readSecurityLevel(cf, id),
      readBotManagement(cf, id),
    ]);
    const unreadable: ZoneSettingProblem[] = [];
    const value = <T, V>(outcome: PromiseSettledResult<T>, keys: ZoneSettingKey[], pick: (read: T) => V) => {
      if (outcome.status === 'fulfilled') return pick(outcome.value);
      const reason = reasonOf(outcome.reason);
      for (const setting of keys)
        unreadable.push({ setting, message: `${ZONE_SETTING_LABELS[setting]} could not be read: ${reason}` });
      return null;
    };
    return {
      alwaysUseHTTPS: value(https, ['alwaysUseHTTPS'], (on) => on),
      underAttackMode: value(level, ['underAttackMode'], (read) => read === 'under_attack'),
      botFightMode: value(bots, ['botFightMode', 'blockAITrainingBots'], (read) => read.fight_mode === true),
      blockAITrainingBots: bots.status === 'fulfilled' ? bots.value.ai_bots_protection === 'block' : null,
      securityLevel: level.status === 'fulfilled' ? level.value : null,
      unreadable,
    };
  }

  /**
   * Sends only the settings in `changes`, each by its own call. The zone settings go in parallel; the
   * two Bot Management fields one after the other (each is a write of the same configuration).
   */
  async update(
    userId: number,
    zoneId: string,
    changes: UpdateZoneSettingsRequest,
  ): Promise<UpdateZoneSettingsResponse> {
    const { cf, zone } = await this.ownedZones.require(userId, zoneId);
    const id = zone.zoneId;
    const result: UpdateZoneSettingsResponse = { applied: {}, failed: [] };
    const apply = async (setting: ZoneSettingKey, write: (wanted: boolean) => Promise<boolean>) => {
      const wanted = changes[setting];
      if (wanted === undefined) return;
      try {
        result.applied[setting] = await write(wanted);
      } catch (err) {
        const reason = reasonOf(err);
        result.failed.push({
          setting,
          message: `${ZONE_SETTING_LABELS[setting]} could not be saved: ${reason}`,
        });
      }
    };
    await Promise.all([
      apply('alwaysUseHTTPS', (on) => writeAlwaysUseHttps(cf, id, on)),
      apply('underAttackMode', (on) => this.writeUnderAttack(cf, id, on)),
      (async () => {
        await apply(
          'botFightMode',
          async (on) => (await writeBotManagement(cf, id, { fight_mode: on })).fight_mode === true,
        );
        await apply(
          'blockAITrainingBots',
          async (on) =>
            (await writeBotManagement(cf, id, { ai_bots_protection: on ? 'block' : 'disabled' }))
              .ai_bots_protection === 'block',
        );
      })(),
    ]);
    result.failed.sort((a, b) => ZONE_SETTING_KEYS.indexOf(a.setting) - ZONE_SETTING_KEYS.indexOf(b.setting));
    return result;
  }

  /** On: the level becomes under_attack (the earlier one remembered). Off: back to the earlier level. */
  private async writeUnderAttack(cf: Cloudflare, zoneId: string, on: boolean): Promise<boolean> {
    const current = await readSecurityLevel(cf, zoneId);
    if (on) {
      if (current === 'under_attack') return true;
      const level = await writeSecurityLevel(cf, zoneId, 'under_attack');
      this.levelsBeforeAttack.set(zoneId, current);
      return level === 'under_attack';
    }
    // Already off (changed elsewhere meanwhile): nothing to put back.
    if (current !== 'under_attack') return false;
    const level = await writeSecurityLevel(
      cf,
      zoneId,
      this.levelsBeforeAttack.get(zoneId) ?? DEFAULT_SECURITY_LEVEL,
    );
    this.levelsBeforeAttack.delete(zoneId);
    return level === 'under_attack';
  }
}

async function readAlwaysUseHttps(cf: Cloudflare, zoneId: string): Promise<boolean> {
  const answer = await cf.zones.settings.get('always_use_https', { zone_id: zoneId });
  return usableAnswer(onOffSettingAnswer, answer, 'the zone setting Always Use HTTPS').value === 'on';
}

async function writeAlwaysUseHttps(cf: Cloudflare, zoneId: string, on: boolean): Promise<boolean> {
  const answer = await cf.zones.settings.edit('always_use_https', {
    zone_id: zoneId,
    value: on ? 'on' : 'off',
  });
  return usableAnswer(onOffSettingAnswer, answer, 'the zone setting Always Use HTTPS').value === 'on';
}

async function readSecurityLevel(cf: Cloudflare, zoneId: string): Promise<SecurityLevel> {
  const answer = await cf.zones.settings.get('security_level', { zone_id: zoneId });
  return usableAnswer(securityLevelAnswer, answer, 'the zone setting Security Level').value;
}

async function writeSecurityLevel(
  cf: Cloudflare,
  zoneId: string,
  level: SecurityLevel,
): Promise<SecurityLevel> {
  const answer = await cf.zones.settings.edit('security_level', { zone_id: zoneId, value: level });
  return usableAnswer(securityLevelAnswer, answer, 'the zone setting Security Level').value;
}

async function readBotManagement(cf: Cloudflare, zoneId: string) {
  const answer = await cf.botManagement.get({ zone_id: zoneId });
  return usableAnswer(botManagementAnswer, answer, "the zone's Bot Management configuration");
}

/** A Bot Management write of one field: Cloudflare keeps the fields a PUT does not send. */
async function writeBotManagement(
  cf: Cloudflare,
  zoneId: string,
  fields: { fight_mode: boolean } | { ai_bots_protection: 'block' | 'disabled' },
) {
  const answer = await cf.botManagement.update({ zone_id: zoneId, ...fields });
  return usableAnswer(botManagementAnswer, answer, "the zone's Bot Management configuration");
}
