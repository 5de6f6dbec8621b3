import { BAN_LIST_KINDS } from '@guardian/contract';
import { z } from 'zod';
import { AppError } from '../app-error';

/**
 * The shapes of Cloudflare's answers that the console reads and passes on. Cloudflare's answer is
 * checked before use: a field of the wrong type or size is a clear 502, never a 500 or a browser
 * fed whatever arrived. Objects stay loose: fields the console does not read ride along untouched
 * (a custom rule is written back whole). Sizes are Cloudflare's own limits, with room to spare.
 */

const id = z.string().min(1).max(100);
const text = (max: number) => z.string().max(max);
const optionalText = (max: number) => text(max).nullish();

export const zoneAnswer = z.looseObject({
  id,
  name: text(253),
  status: optionalText(50),
  name_servers: z.array(text(253)).max(20).nullish(),
  // The zone's plan (marked deprecated for changing a plan, which the subscription API now does; it is
  // still how a zones answer says its plan): legacy_id is free, pro, business or enterprise.
  plan: z.looseObject({ legacy_id: optionalText(50) }).nullish(),
});

export const dnsRecordAnswer = z.looseObject({
  id,
  type: text(20),
  name: text(253),
  // TXT content is at most 2,048 characters at Cloudflare; other types less.
  content: optionalText(8_192),
  comment: optionalText(500),
  priority: z.number().int().nullish(),
  ttl: z.number().int(),
  proxied: z.boolean().nullish(),
  tags: z.array(text(200)).max(100).nullish(),
  data: z
    .looseObject({
      priority: z.number().int().nullish(),
      weight: z.number().int().nullish(),
      port: z.number().int().nullish(),
      target: optionalText(253),
    })
    .nullish(),
});

export const customRuleAnswer = z.looseObject({
  id,
  // The custom-rules phase allows no other actions.
  action: z.enum(['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip']),
  expression: text(4_096),
  description: optionalText(1_000),
  enabled: z.boolean().nullish(),
  ref: optionalText(100),
  action_parameters: z.record(z.string(), z.unknown()).nullish(),
});

/** Custom rules per zone: 1,000 on Enterprise. */
export const MAX_CUSTOM_RULES = 1_000;

export const customRulesetAnswer = z.looseObject({
  id,
  rules: z.array(customRuleAnswer).max(MAX_CUSTOM_RULES).nullish(),
});

export const pageRuleAnswer = z.looseObject({
  id,
  priority: z.number().int(),
  status: z.enum(['active', 'disabled']),
  targets: z
    .array(
      z.looseObject({
        target: optionalText(20),
        constraint: z
          .looseObject({
            operator: z.enum(['matches', 'contains', 'equals', 'not_equal', 'not_contain']).nullish(),
            value: optionalText(2_048),
          })
          .nullish(),
      }),
    )
    .max(10),
  actions: z.array(z.looseObject({ id: text(100), value: z.unknown().optional() })).max(100),
});

/** Page rules per zone: 125 on Enterprise (each is checked as it is read). */
export const pageRulesAnswer = z.array(z.unknown()).max(125);

export const listAnswer = z.looseObject({
  id,
  name: text(50),
  kind: z.enum(BAN_LIST_KINDS),
  num_items: z.number().int().min(0),
  description: optionalText(500),
});

/** An account's lists, in one answer: 1,000 on Enterprise. */
export const accountListsAnswer = z.array(listAnswer).max(1_000);

const ITEM_VALUES = ['ip', 'hostname', 'asn', 'redirect'] as const;

export const listItemAnswer = z
  .looseObject({
    id,
    comment: optionalText(500),
    created_on: text(50),
    ip: text(64).optional(),
    hostname: z.looseObject({ url_hostname: text(253) }).optional(),
    asn: z.number().int().min(0).optional(),
    redirect: z.looseObject({ source_url: text(2_048), target_url: text(2_048) }).optional(),
  })
  .refine((item) => ITEM_VALUES.filter((key) => key in item).length === 1, {
    message: 'an item holds exactly one of ip, hostname, asn, redirect',
  });

/** Cloudflare's largest page of list items. */
export const LIST_ITEMS_PER_PAGE = 500;

/** One page of a list's items, read by cursor. */
export const listItemsPageAnswer = z.looseObject({
  result: z.array(listItemAnswer).max(LIST_ITEMS_PER_PAGE),
  result_info: z
    .looseObject({ cursors: z.looseObject({ after: z.string().max(1_000).nullish() }).nullish() })
    .nullish(),
});

/** Cloudflare's answer could not be used: a 502 naming what and where, never the values. */
export function unusableAnswer(what: string, detail: string): AppError {
  return new AppError('UPSTREAM', `Cloudflare's answer could not be used: ${what}: ${detail}`.slice(0, 300));
}

/** `value` checked against `schema`; `what` names it for the person ("the zone's DNS records"). */
export function usableAnswer<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
  throw unusableAnswer(what, `not in the form Cloudflare documents${where}.`);
}
