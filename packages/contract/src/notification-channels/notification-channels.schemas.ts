import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import LABELS from '../shared/labels.en.json';

/**
 * Notification channels (System Setting; server: apps/server/src/modules/notification-webhooks): where
 * Guardian posts alerts besides the console. `webhook` is a Standard Webhooks receiver (signed JSON,
 * https://www.standardwebhooks.com); `slack`, `teams` and `discord` are those services' incoming
 * webhooks, whose URL is itself the secret (stored encrypted, shown masked).
 */
export const CHANNEL_TYPE_LABELS = LABELS.notificationChannelTypes;
export type ChannelType = keyof typeof CHANNEL_TYPE_LABELS;
export const CHANNEL_TYPES = keysOf(CHANNEL_TYPE_LABELS);

/** At most this many channels in all. */
export const CHANNELS_MAX = 20;
export const CHANNEL_NAME_MAX_LENGTH = 100;
export const CHANNEL_URL_MAX_LENGTH = 2_000;
/** The longest answer of a receiver quoted back (its status and the start of its body). */
export const CHANNEL_ANSWER_MAX_LENGTH = 300;

/**
 * An https:// URL without a user name or password. The server also takes http:// to a loopback address
 * when its configuration allows it (tests and the demo), so the schema leaves the scheme to the server.
 */
const urlSchema = z
  .string({ error: 'Enter the URL of the webhook.' })
  .trim()
  .min(1, 'Enter the URL of the webhook.')
  .max(CHANNEL_URL_MAX_LENGTH, `The URL must be at most ${CHANNEL_URL_MAX_LENGTH} characters.`)
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { error: 'The URL must be an https:// address without a user name or password.' },
  );

const nameSchema = z
  .string({ error: 'Enter a name for the channel.' })
  .trim()
  .min(1, 'Enter a name for the channel.')
  .max(CHANNEL_NAME_MAX_LENGTH, `The name must be at most ${CHANNEL_NAME_MAX_LENGTH} characters.`);

export const channelRequestSchema = z
  .object({
    name: nameSchema,
    type: z.enum(CHANNEL_TYPES, { error: `The type must be one of ${CHANNEL_TYPES.join(', ')}.` }),
    /** Named so the audit trail redacts it: a Slack, Teams or Discord URL is a secret. */
    webhook_url: urlSchema,
    enabled: z.boolean({ error: 'Enabled must be true or false.' }).default(true),
  })
  .strict();
export type ChannelRequest = z.input<typeof channelRequestSchema>;

/** A change of a channel: its name, URL or whether it is on (its type and secret stay). */
export const channelUpdateRequestSchema = z
  .object({ name: nameSchema, webhook_url: urlSchema, enabled: z.boolean() })
  .partial()
  .strict();
export type ChannelUpdate = z.input<typeof channelUpdateRequestSchema>;

export const channelParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The channel id must be a number.' })
    .int('The channel id must be a number.')
    .positive('The channel id must be a number.')
    .max(Number.MAX_SAFE_INTEGER, 'The channel id must be a number.'),
});

/** How the last delivery (or test) went. */
export const channelDeliveryResultSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  /** The receiver's HTTP status; null when none came (unreachable, timed out). */
  status: z.number().int().nullable(),
  /** In words: what the receiver said, or what went wrong. */
  message: z.string(),
});
export type ChannelDeliveryResult = z.infer<typeof channelDeliveryResultSchema>;

export const notificationChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(CHANNEL_TYPES),
  /** The URL's scheme and host, the rest masked: the whole URL is never sent back. */
  url_masked: z.string(),
  enabled: z.boolean(),
  /** Whether it signs its deliveries (a `webhook` channel always does). */
  signed: z.boolean(),
  /** Set by the environment variable named here (it cannot be changed or deleted on the page). */
  from_environment: z.string().nullable(),
  last_delivery: channelDeliveryResultSchema.nullable(),
  /** Failed attempts in a row since its last success. */
  failing_count: z.number().int().nonnegative(),
  /** Deliveries waiting (for their first attempt or a retry). */
  queued: z.number().int().nonnegative(),
  /** Deliveries dropped unsent: the oldest, past the queue's bound, or after every attempt failed. */
  dropped: z.number().int().nonnegative(),
  created_at: z.string(),
});
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

export const notificationChannelsSchema = z.object({
  channels: z.array(notificationChannelSchema),
  /** CHANNELS_MAX: how many there may be. */
  limit: z.number().int(),
});
export type NotificationChannels = z.infer<typeof notificationChannelsSchema>;

/** A new channel; for `webhook`, its signing secret, shown this once (`whsec_...`). */
export const createdChannelSchema = z.object({
  channel: notificationChannelSchema,
  signing_secret: z.string().nullable(),
});
export type CreatedChannel = z.infer<typeof createdChannelSchema>;

/** "Send a test": what the receiver answered (a failure is a 409 saying what went wrong). */
export const channelTestResultSchema = z.object({
  status: z.number().int(),
  answer: z.string(),
});
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;
