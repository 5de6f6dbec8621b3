import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import { cursorQueryFields } from '../shared/paging';
import LABELS from '../shared/labels.en.json';

/*
 * Alerts (server: apps/server/src/modules/alerts): something a person should know of, raised by its
 * cause where it happens. The same cause (its dedupe key) raises one alert whose count and last seen
 * grow, not a row each time.
 */

/** Each kind of alert, and what it is called on the alerts page and in its filter. */
export const ALERT_KIND_LABELS = LABELS.alertKinds;
export type AlertKind = keyof typeof ALERT_KIND_LABELS;
export const ALERT_KINDS = keysOf(ALERT_KIND_LABELS);

export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/**
 * `open`: not looked at; `acknowledged`: the person knows (it still counts its causes);
 * `resolved`: the person closed it; `cleared`: resolved by itself, its cause went away.
 */
export const ALERT_STATE_LABELS = LABELS.alertStates;
export type AlertState = keyof typeof ALERT_STATE_LABELS;
export const ALERT_STATES = keysOf(ALERT_STATE_LABELS);

/** What an alert is about, for its link. */
export const ALERT_SUBJECT_TYPES = ['account', 'list', 'zone', 'server', 'token', 'ticket'] as const;
export type AlertSubjectType = (typeof ALERT_SUBJECT_TYPES)[number];

/** The longest title an alert keeps. */
export const ALERT_TITLE_MAX = 500;
/** The most alerts one page holds. */
export const ALERTS_PAGE_MAX = 100;
/** The open count stops counting here (the bell shows "999+"). */
export const ALERTS_OPEN_COUNT_MAX = 1_000;

export const alertSubjectSchema = z.object({
  type: z.enum(ALERT_SUBJECT_TYPES),
  /** Cloudflare's id of the account, list or zone; Guardian's id of the account for a token, of a ticket. */
  id: z.string(),
  /** Its name when the alert was raised. */
  name: z.string(),
});
export type AlertSubject = z.infer<typeof alertSubjectSchema>;

export const alertSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  severity: z.enum(ALERT_SEVERITIES),
  state: z.enum(ALERT_STATES),
  /** The alert in words, as its last cause said it. */
  title: z.string(),
  subject: alertSubjectSchema.nullable(),
  /** How many times its cause happened while it was open or acknowledged. */
  count: z.number().int().positive(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  acknowledged_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertsQuerySchema = z.object({
  /** One state, or `active` (open or acknowledged); none: every state. */
  state: z
    .enum([...ALERT_STATES, 'active'], {
      error: `State must be one of ${[...ALERT_STATES, 'active'].join(', ')}.`,
    })
    .optional(),
  kind: z.enum(ALERT_KINDS, { error: `Kind must be one of ${ALERT_KINDS.join(', ')}.` }).optional(),
  severity: z
    .enum(ALERT_SEVERITIES, { error: `Severity must be one of ${ALERT_SEVERITIES.join(', ')}.` })
    .optional(),
  ...cursorQueryFields(ALERTS_PAGE_MAX),
});
export type AlertsQuery = z.input<typeof alertsQuerySchema>;

export const alertsPageSchema = z.object({
  /** Most recently seen first. */
  alerts: z.array(alertSchema),
  /** Pass as `before` for the next page; null on the last page. */
  next_cursor: z.number().int().nullable(),
});
export type AlertsPage = z.infer<typeof alertsPageSchema>;

export const alertsSummarySchema = z.object({
  /** The person's open alerts (the bell's number), counted up to ALERTS_OPEN_COUNT_MAX. */
  open: z.number().int().nonnegative(),
});
export type AlertsSummary = z.infer<typeof alertsSummarySchema>;

export const alertParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The alert id must be a number.' })
    .int('The alert id must be a number.')
    .positive('The alert id must be a number.')
    .max(Number.MAX_SAFE_INTEGER, 'The alert id must be a number.'),
});
