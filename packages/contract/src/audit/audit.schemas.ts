import { z } from 'zod';

/** How a change ended: done, refused by Guardian or Cloudflare (4xx), or failed (5xx). */
export const AUDIT_OUTCOMES = ['success', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One change anyone made through Guardian, as the trail keeps it (append-only; no secret in it). */
export const auditEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Guardian's id of the person; null for a sign-in by an unknown e-mail. */
  user_id: z.number().int().nullable(),
  /** The person's e-mail when it happened (or the e-mail a sign-in was tried with). */
  actor: z.string(),
  /** The address the request came from. */
  address: z.string(),
  /** What was done: the endpoint's name, e.g. `banListItems.add`, `auth.login`. */
  action: z.string(),
  /**
   * The event in words, written when it happened: who did what to which address, list, zone or rule,
   * and how it ended ("ada@example.com removed 203.0.113.7 from block_list (account Acme)"). Empty for
   * events recorded before Guardian wrote them.
   */
  summary: z.string(),
  /** The request as people read it: `DELETE /api/cloudflare/zones/{zone_id}/dns/{record_id}`. */
  request: z.string(),
  /** Cloudflare's account id and zone id involved, when known. */
  account_id: z.string().nullable(),
  zone_id: z.string().nullable(),
  /** The ids in the path and the request's fields (secrets redacted, long values cut). */
  target: z.record(z.string(), z.unknown()),
  outcome: z.enum(AUDIT_OUTCOMES),
  status: z.number().int(),
  /** Guardian's or Cloudflare's message when it did not succeed. */
  message: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

const AUDIT_PAGE_MAX = 200;

/** An ISO 8601 date and time, e.g. 2026-11-23T10:00:00Z (checked for length before its form). */
const dateTime = (what: string) =>
  z
    .string()
    .max(40, `${what} is too long.`)
    .pipe(z.iso.datetime({ offset: true, error: `${what} must be a date and time (ISO 8601).` }));

/** The longest text the trail is searched for. */
export const AUDIT_SEARCH_MAX = 200;

export const auditQuerySchema = z.object({
  /** Text the event's words contain (an address, a list name, an e-mail), in any case. */
  q: z
    .string()
    .trim()
    .max(AUDIT_SEARCH_MAX, `The search is at most ${AUDIT_SEARCH_MAX} characters.`)
    .optional(),
  /** Part of the person's e-mail. */
  actor: z.string().trim().max(254, 'The person filter is too long.').optional(),
  /** Cloudflare's account id. */
  account_id: z.string().trim().max(64, 'The account filter is too long.').optional(),
  /** An action, or the start of one (`banListItems.` for every item change). */
  action: z.string().trim().max(64, 'The action filter is too long.').optional(),
  outcome: z.enum(AUDIT_OUTCOMES, { error: 'Outcome must be success, refused or failed.' }).optional(),
  from: dateTime('From').optional(),
  to: dateTime('To').optional(),
  /** The page after the event with this id (the previous page's `next_cursor`). */
  before: z.coerce.number({ error: 'The cursor must be a number.' }).int().positive().optional(),
  limit: z.coerce
    .number({ error: 'The limit must be a number.' })
    .int()
    .min(1, 'The limit must be at least 1.')
    .max(AUDIT_PAGE_MAX, `The limit must be at most ${AUDIT_PAGE_MAX}.`)
    .default(50),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** The CSV export's query: the page's filters, without paging (the export is capped instead). */
export const auditExportQuerySchema = auditQuerySchema.omit({ before: true, limit: true });

export const auditPageSchema = z.object({
  events: z.array(auditEventSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_cursor: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
