import { z } from 'zod';
import { ALERT_KINDS, type AlertKind } from '../alerts/alerts.schemas';

/**
 * Where each kind of a person's alerts goes (server: apps/server/src/modules/notifications): always
 * the console (it is the record), and by the person's choice e-mail and the webhook channels.
 * `notification-failed` is the channels' own alert: console only, so a failing channel cannot loop.
 */
export const NOTIFIABLE_ALERT_KINDS = ALERT_KINDS.filter(
  (kind): kind is Exclude<AlertKind, 'notification-failed'> => kind !== 'notification-failed',
);
export type NotifiableAlertKind = (typeof NOTIFIABLE_ALERT_KINDS)[number];

/**
 * The kinds not e-mailed unless the person asks: a refused server ban (a busy server can refuse many,
 * and its group's policy is the administrator's own choice) and a failing notification channel (told
 * in the console, as its module's README says). Every other kind asks for action or may be someone
 * else's doing (a dead token, a refused ban, a failed job, a full list, a security change, a ticket's
 * turn), expiry warnings too (three at most per token), so it is e-mailed. Webhooks are off for every
 * kind until the person turns them on.
 */
const NOT_EMAILED_BY_DEFAULT: readonly NotifiableAlertKind[] = ['server-refused', 'channel-failing'];
export const DEFAULT_EMAILED_KINDS: readonly NotifiableAlertKind[] = NOTIFIABLE_ALERT_KINDS.filter(
  (kind) => !NOT_EMAILED_BY_DEFAULT.includes(kind),
);

export const notificationPreferenceSchema = z.strictObject({
  kind: z.enum(NOTIFIABLE_ALERT_KINDS, {
    error: `Kind must be one of ${NOTIFIABLE_ALERT_KINDS.join(', ')} (a notification-failed alert is shown in the console only).`,
  }),
  email: z.boolean({ error: 'E-mail must be true or false.' }),
  webhook: z.boolean({ error: 'Webhook must be true or false.' }),
});
export type NotificationPreference = z.infer<typeof notificationPreferenceSchema>;

export const notificationPreferencesSchema = z.object({
  /** One per notifiable kind, in the order of ALERT_KINDS. */
  preferences: z.array(notificationPreferenceSchema),
  /** Outgoing e-mail is set up (System Setting's SMTP host and sender): without it nothing is e-mailed. */
  email_set_up: z.boolean(),
  /** At most one e-mail per kind in this many minutes; the rest of them come in one digest after. */
  email_window_minutes: z.number().positive(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const notificationPreferencesUpdateRequestSchema = z.strictObject({
  /** The kinds to change (the others stay as they are), each at most once. */
  preferences: z
    .array(notificationPreferenceSchema, {
      error: 'Preferences must be a list of { kind, email, webhook }.',
    })
    .min(1, 'Give at least one preference.')
    .max(NOTIFIABLE_ALERT_KINDS.length, `Give at most ${NOTIFIABLE_ALERT_KINDS.length} preferences.`)
    .refine((list) => new Set(list.map((entry) => entry.kind)).size === list.length, {
      message: 'Each kind may be given once.',
    }),
});
export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateRequestSchema>;
