import { z } from 'zod';
import { LOOKUP_ID_MAX } from '../shared/ids';
import { userParamsSchema } from '../users/users.schemas';

/**
 * What a key may do: `read` only reads (GET); `ban` reads and adds or removes ban-list items, nothing
 * else. Either may be limited to some Cloudflare accounts or lists.
 */
export const API_KEY_ACCESS = ['read', 'ban'] as const;
export type ApiKeyAccess = (typeof API_KEY_ACCESS)[number];

/** Keys a person may hold at once. */
export const MAX_API_KEYS_PER_USER = 20;
/** Accounts or lists one key may be limited to. */
export const MAX_API_KEY_TARGETS = 50;

/** Every key starts so, which tells it from a session token: `gk_<id>_<secret>`. */
export const API_KEY_PREFIX = 'gk_';

const ids = (what: string) =>
  z
    .array(z.string().trim().min(1).max(LOOKUP_ID_MAX, `A ${what} id is too long.`), {
      error: `${what[0]!.toUpperCase()}${what.slice(1)} ids must be a list.`,
    })
    .max(MAX_API_KEY_TARGETS, `A key may be limited to at most ${MAX_API_KEY_TARGETS} ${what}s.`)
    .default([]);

export const createApiKeyRequestSchema = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(60, 'Name must be at most 60 characters.')
    // The name is the audit trail's actor: no line breaks, control or direction-changing characters.
    .regex(
      /^[^\p{C}\p{Zl}\p{Zp}]*$/u,
      'The name may hold only printable characters (no line breaks or control characters).',
    ),
  access: z.enum(API_KEY_ACCESS, { error: 'Access must be read or ban.' }),
  /** Cloudflare account ids the key is limited to (none: every account of the person). */
  account_ids: ids('account'),
  /** Cloudflare list ids the key is limited to (none: every list of its accounts). */
  list_ids: ids('list'),
  /** Optional expiry (ISO 8601), at most two years ahead. */
  expires_at: z
    .string()
    .max(40, 'The expiry is too long.')
    .pipe(z.iso.datetime({ offset: true, error: 'The expiry must be a date and time (ISO 8601).' }))
    .refine((text) => Date.parse(text) > Date.now(), 'The expiry must be in the future.')
    .refine(
      (text) => Date.parse(text) < Date.now() + 2 * 366 * 86_400_000,
      'The expiry is more than two years ahead.',
    )
    .nullish(),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  access: z.enum(API_KEY_ACCESS),
  account_ids: z.array(z.string()),
  list_ids: z.array(z.string()),
  /** The key's last four characters, to recognise it. */
  last_four: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to creating a key: the only time the whole key is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The key id must be a number.' })
    .int()
    .positive('The key id must be a number.'),
});

/** `/api/admin/users/:id/api-keys/:key_id`: one person's key, as an administrator names it. */
export const userApiKeyParamsSchema = userParamsSchema.extend({
  key_id: apiKeyParamsSchema.shape.id,
});
