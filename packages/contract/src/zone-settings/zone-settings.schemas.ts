import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import LABELS from '../shared/labels.en.json';

/**
 * The zone settings dialog's four switches, each read from and written to Cloudflare by its own
 * calls (the batch `/zones/{id}/settings` reached end of life on 2026-09-15):
 * - alwaysUseHTTPS: the zone setting `always_use_https` (on/off);
 * - botFightMode: Bot Management's `fight_mode`;
 * - underAttackMode: the zone setting `security_level` is `under_attack`;
 * - blockAITrainingBots: Bot Management's `ai_bots_protection` is `block`.
 *
 * Each with the dialog's label, which also names it in messages ("Bot Fight Mode could not be saved: ...").
 */
export const ZONE_SETTING_LABELS = LABELS.zoneSettings;
export type ZoneSettingKey = keyof typeof ZONE_SETTING_LABELS;
export const ZONE_SETTING_KEYS = keysOf(ZONE_SETTING_LABELS);

export type ZoneSettings = Record<ZoneSettingKey, boolean>;

const settingKeySchema = z.enum(ZONE_SETTING_KEYS);

/** A setting that could not be read or saved, and Cloudflare's reason. */
export const zoneSettingProblemSchema = z.object({
  setting: settingKeySchema,
  message: z.string(),
});
export type ZoneSettingProblem = z.infer<typeof zoneSettingProblemSchema>;

/**
 * GET /api/cloudflare/zones/{zone_id}/settings: each setting as Cloudflare has it now, or null when it
 * could not be read (its reason in `unreadable`: e.g. a token without Bot Management permission).
 */
export const zoneSettingsStateSchema = z.object({
  alwaysUseHTTPS: z.boolean().nullable(),
  botFightMode: z.boolean().nullable(),
  underAttackMode: z.boolean().nullable(),
  blockAITrainingBots: z.boolean().nullable(),
  /** Cloudflare's security level (`medium`, `high`, `under_attack`...), null when unread. */
  securityLevel: z.string().nullable(),
  unreadable: z.array(zoneSettingProblemSchema),
});
export type ZoneSettingsState = z.infer<typeof zoneSettingsStateSchema>;

/** PUT /api/cloudflare/zones/{zone_id}/settings: only the settings the person changed. */
export const updateZoneSettingsRequestSchema = z
  .strictObject(
    {
      alwaysUseHTTPS: z.boolean().optional(),
      botFightMode: z.boolean().optional(),
      underAttackMode: z.boolean().optional(),
      blockAITrainingBots: z.boolean().optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? 'Unknown zone setting.' : 'Expected an object of settings.',
    },
  )
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    'Nothing to save: change a setting first.',
  );
export type UpdateZoneSettingsRequest = z.infer<typeof updateZoneSettingsRequestSchema>;

/**
 * The answer to a save: every setting sent is in `applied` (its value at Cloudflare now) or in `failed`
 * (with Cloudflare's reason; it keeps its old value). A failure never undoes the others.
 */
export const updateZoneSettingsResponseSchema = z.object({
  applied: z.object({
    alwaysUseHTTPS: z.boolean().optional(),
    botFightMode: z.boolean().optional(),
    underAttackMode: z.boolean().optional(),
    blockAITrainingBots: z.boolean().optional(),
  }),
  failed: z.array(zoneSettingProblemSchema),
});
export type UpdateZoneSettingsResponse = z.infer<typeof updateZoneSettingsResponseSchema>;
