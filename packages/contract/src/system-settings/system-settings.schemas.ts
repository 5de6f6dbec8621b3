import { z } from 'zod';
import { EMAIL_PATTERN } from '../auth/auth.constants';
import { keysOf } from '../shared/closed-set';
import LABELS from '../shared/labels.en.json';

/**
 * System Setting (/admin/settings; server: apps/server/src/modules/system-settings): what an
 * administrator sets for every server process, kept in the database. Each has a range; an environment
 * variable, where set, still wins (`from_environment` names it).
 */
export const SMTP_TLS_LABELS = LABELS.smtpTlsModes;
export type SmtpTlsMode = keyof typeof SMTP_TLS_LABELS;
export const SMTP_TLS_MODES = keysOf(SMTP_TLS_LABELS);

export const SMTP_HOST_MAX_LENGTH = 253;
export const SMTP_USER_MAX_LENGTH = 254;
export const SMTP_PASSWORD_MAX_LENGTH = 512;
export const SMTP_SENDER_MAX_LENGTH = 320;

/** Each numeric setting's range, as the form shows it and the server holds it. */
export const SETTING_RANGES = {
  smtp_port: { min: 1, max: 65_535, unit: '' },
  session_lifetime_minutes: { min: 5, max: 43_200, unit: 'minutes' },
  sign_in_window_minutes: { min: 1, max: 1_440, unit: 'minutes' },
  sign_in_failures_per_email: { min: 1, max: 100, unit: 'failures' },
  sign_in_failures_per_address: { min: 1, max: 10_000, unit: 'failures' },
  audit_retention_days: { min: 1, max: 36_500, unit: 'days' },
  snapshot_retention_hours: { min: 1, max: 8_760, unit: 'hours' },
  resolved_alert_retention_days: { min: 1, max: 3_650, unit: 'days' },
  expiry_sweep_seconds: { min: 1, max: 3_600, unit: 'seconds' },
} as const;
export type RangedSetting = keyof typeof SETTING_RANGES;

/** What each setting is called on the page and in the messages that refuse it. */
export const SETTING_LABELS = LABELS.systemSettings;
export type SettingName = keyof typeof SETTING_LABELS;

const ranged = (name: RangedSetting) => {
  const { min, max, unit } = SETTING_RANGES[name];
  const message = `${SETTING_LABELS[name]} must be a whole number from ${min} to ${max}${unit ? ` ${unit}` : ''}.`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** A text setting: trimmed, bounded; empty is "not set" (null). */
const optionalText = (name: SettingName, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${SETTING_LABELS[name]} is longer than ${max} characters.`)
    .transform((text) => (text === '' ? null : text))
    .nullable();

const hostSchema = optionalText('smtp_host', SMTP_HOST_MAX_LENGTH).refine(
  (host) => host === null || /^[A-Za-z0-9.:[\]-]+$/.test(host),
  'SMTP host must be a host name or an IP address (letters, digits, dots, hyphens).',
);

const senderSchema = optionalText('smtp_sender', SMTP_SENDER_MAX_LENGTH).refine(
  (sender) => sender === null || EMAIL_PATTERN.test(sender.replace(/^.*<(.+)>\s*$/, '$1')),
  'Sender must be an e-mail address, alone or as "Name <name@example.com>".',
);

/** The settings as they apply now (environment first, then the database, then the defaults). */
export const systemSettingsValuesSchema = z.object({
  smtp_host: z.string().nullable(),
  smtp_port: z.number().int(),
  smtp_tls: z.enum(SMTP_TLS_MODES),
  smtp_user: z.string().nullable(),
  /** Whether a password is stored (it is never sent back). */
  smtp_password_set: z.boolean(),
  smtp_sender: z.string().nullable(),
  require_two_factor: z.boolean(),
  session_lifetime_minutes: z.number().int(),
  sign_in_window_minutes: z.number().int(),
  sign_in_failures_per_email: z.number().int(),
  sign_in_failures_per_address: z.number().int(),
  audit_retention_days: z.number().int(),
  snapshot_retention_hours: z.number().int(),
  resolved_alert_retention_days: z.number().int(),
  expiry_sweep_seconds: z.number().int(),
});
export type SystemSettingsValues = z.infer<typeof systemSettingsValuesSchema>;

/** `GET /api/admin/settings`: the values, and the ones an environment variable sets (by its name). */
export const systemSettingsSchema = z.object({
  values: systemSettingsValuesSchema,
  from_environment: z.partialRecord(z.enum(keysOf(SETTING_LABELS)), z.string()),
  updated_at: z.string().nullable(),
});
export type SystemSettings = z.infer<typeof systemSettingsSchema>;

/**
 * `PUT /api/admin/settings`: the settings to change (others stay). `smtp_password`: a new one, or null
 * to remove it; left out, the stored one stays.
 */
export const systemSettingsUpdateRequestSchema = z
  .object({
    smtp_host: hostSchema,
    smtp_port: ranged('smtp_port'),
    smtp_tls: z.enum(SMTP_TLS_MODES, { error: 'TLS must be none, starttls or tls.' }),
    smtp_user: optionalText('smtp_user', SMTP_USER_MAX_LENGTH),
    smtp_password: z
      .string()
      .max(SMTP_PASSWORD_MAX_LENGTH, `SMTP password is longer than ${SMTP_PASSWORD_MAX_LENGTH} characters.`)
      .nullable(),
    smtp_sender: senderSchema,
    require_two_factor: z.boolean(),
    session_lifetime_minutes: ranged('session_lifetime_minutes'),
    sign_in_window_minutes: ranged('sign_in_window_minutes'),
    sign_in_failures_per_email: ranged('sign_in_failures_per_email'),
    sign_in_failures_per_address: ranged('sign_in_failures_per_address'),
    audit_retention_days: ranged('audit_retention_days'),
    snapshot_retention_hours: ranged('snapshot_retention_hours'),
    resolved_alert_retention_days: ranged('resolved_alert_retention_days'),
    expiry_sweep_seconds: ranged('expiry_sweep_seconds'),
  })
  .partial()
  .strict();
export type SystemSettingsUpdate = z.input<typeof systemSettingsUpdateRequestSchema>;

/** `POST /api/admin/settings/test-email`: to whom (the administrator's own address when left out). */
export const testEmailRequestSchema = z
  .object({
    to: z
      .string()
      .trim()
      .max(254, 'E-mail is too long.')
      .regex(EMAIL_PATTERN, 'E-mail must look like name@example.com.')
      .optional(),
  })
  .strict();
export type TestEmailRequest = z.infer<typeof testEmailRequestSchema>;

export const testEmailResultSchema = z.object({
  sent_to: z.string(),
  /** What the SMTP server answered when it took the message. */
  server_response: z.string(),
});
export type TestEmailResult = z.infer<typeof testEmailResultSchema>;
