import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import { NEW_PAGE_RULE_PRIORITY, REDIRECT_CODES } from '../shared/constants';
import { cloudflareIdSchema, LOOKUP_ID_MAX } from '../shared/ids';
import { zoneParamsSchema } from '../zones/zones.schemas';
import LABELS from '../shared/labels.en.json';

/* The page-rule setting catalogue of spec section 3, shared by the server's checks and the editor. */

export const PAGE_RULE_GROUP_LABELS = LABELS.pageRuleGroups;
export type PageRuleGroup = keyof typeof PAGE_RULE_GROUP_LABELS;
export const PAGE_RULE_GROUPS = keysOf(PAGE_RULE_GROUP_LABELS);

/** A rule whose first setting is of this group holds that setting alone. */
export const EXCLUSIVE_PAGE_RULE_GROUP: PageRuleGroup = 'redirect';

export type PageRuleSettingKind = 'toggle' | 'select' | 'number' | 'text' | 'forwarding';

export interface PageRuleSelectOption {
  value: string | number;
  label: string;
}

export interface PageRuleSetting {
  id: string;
  label: string;
  group: PageRuleGroup;
  kind: PageRuleSettingKind;
  /** Select settings only: what the editor offers, the first being the default. */
  options?: readonly PageRuleSelectOption[];
  /**
   * Select settings only: further values Cloudflare accepts that the editor does not offer. A rule
   * made elsewhere may hold one; the console shows and keeps it.
   */
  otherValues?: readonly string[];
}

const onOff = (id: string, label: string, group: PageRuleGroup): PageRuleSetting => ({
  id,
  label,
  group,
  kind: 'toggle',
});

/** A setting of a few values: `options` as the editor offers them, `otherValues` Cloudflare's others. */
const select = (
  id: string,
  label: string,
  group: PageRuleGroup,
  options: readonly PageRuleSelectOption[],
  otherValues?: readonly string[],
): PageRuleSetting => ({ id, label, group, kind: 'select', options, ...(otherValues && { otherValues }) });

export const PAGE_RULE_SETTINGS: readonly PageRuleSetting[] = [
  { id: 'forwarding_url', label: 'Forwarding URL', group: 'redirect', kind: 'forwarding' },

  onOff('always_use_https', 'Always Use HTTPS', 'ssl'),
  onOff('automatic_https_rewrites', 'Automatic HTTPS Rewrites', 'ssl'),
  select(
    'ssl',
    'SSL',
    'ssl',
    [
      { value: 'off', label: 'Off' },
      { value: 'flexible', label: 'Flexible' },
      { value: 'full', label: 'Full' },
      { value: 'strict', label: 'Full (Strict)' },
    ],
    ['origin_pull'],
  ),

  select('browser_cache_ttl', 'Browser Cache TTL', 'cache', [
    { value: 0, label: 'Respect Existing Headers' },
    { value: 30, label: '30 seconds' },
    { value: 1800, label: '30 minutes' },
    { value: 3600, label: '1 hour' },
    { value: 14400, label: '4 hours' },
    { value: 86400, label: '1 day' },
  ]),
  { id: 'edge_cache_ttl', label: 'Edge Cache TTL (seconds)', group: 'cache', kind: 'number' },
  select(
    'cache_level',
    'Cache Level',
    'cache',
    [
      { value: 'bypass', label: 'Bypass' },
      { value: 'standard', label: 'Standard' },
      { value: 'cache_everything', label: 'Cache Everything' },
    ],
    ['basic', 'simplified'],
  ),
  onOff('cache_deception_armor', 'Cache Deception Armor', 'cache'),
  onOff('cache_by_device_type', 'Cache By Device Type', 'cache'),
  onOff('explicit_cache_control', 'Origin Cache Control', 'cache'),
  onOff('sort_query_string_for_cache', 'Sort Query String for Cache', 'cache'),

  onOff('mirage', 'Mirage', 'performance'),
  select('polish', 'Polish', 'performance', [
    { value: 'off', label: 'Off' },
    { value: 'lossless', label: 'Lossless' },
    { value: 'lossy', label: 'Lossy' },
  ]),
  select('rocket_loader', 'Rocket Loader', 'performance', [
    { value: 'off', label: 'Off' },
    { value: 'manual', label: 'Manual' },
    { value: 'automatic', label: 'Automatic' },
  ]),
  onOff('opportunistic_encryption', 'Opportunistic Encryption', 'performance'),
  onOff('respect_strong_etags', 'Respect Strong ETags', 'performance'),
  onOff('origin_error_page_pass_thru', 'Origin Error Page Pass-thru', 'performance'),

  select(
    'security_level',
    'Security Level',
    'security',
    [
      { value: 'essentially_off', label: 'Essentially Off' },
      { value: 'low', label: 'Low' },
      { value: 'medium', label: 'Medium' },
      { value: 'high', label: 'High' },
      { value: 'under_attack', label: "I'm Under Attack" },
    ],
    ['off'],
  ),
  onOff('waf', 'Web Application Firewall', 'security'),
  onOff('server_side_exclude', 'Server Side Excludes', 'security'),
  onOff('email_obfuscation', 'Email Obfuscation', 'security'),
  onOff('browser_integrity_check', 'Browser Integrity Check', 'security'),
  onOff('ip_geolocation', 'IP Geolocation Header', 'security'),
  onOff('true_client_ip_header', 'True-Client-IP Header', 'security'),
  onOff('disable_security', 'Disable Security', 'security'),

  { id: 'host_header_override', label: 'Host Header Override', group: 'header', kind: 'text' },
  { id: 'resolve_override', label: 'Resolve Override', group: 'header', kind: 'text' },

  onOff('disable_apps', 'Disable Apps', 'disable'),
  onOff('disable_performance', 'Disable Performance', 'disable'),
  onOff('disable_railgun', 'Disable Railgun', 'disable'),
];

const SETTINGS_BY_ID = new Map(PAGE_RULE_SETTINGS.map((setting) => [setting.id, setting]));

export function pageRuleSetting(id: string): PageRuleSetting | undefined {
  return SETTINGS_BY_ID.get(id);
}

/**
 * Cloudflare page-rule actions outside the catalogue (cookies, cache keys, Zaraz...): a rule made
 * elsewhere may hold them; the console lists them by id and keeps them as they are.
 */
export const CLOUDFLARE_ONLY_PAGE_RULE_ACTIONS = [
  'bypass_cache_on_cookie',
  'cache_key_fields',
  'cache_on_cookie',
  'cache_ttl_by_status',
  'disable_zaraz',
  'response_buffering',
] as const;

/** A rule holds each setting at most once: no more settings than the catalogue and Cloudflare's own. */
export const PAGE_RULE_ACTIONS_MAX = PAGE_RULE_SETTINGS.length + CLOUDFLARE_ONLY_PAGE_RULE_ACTIONS.length;

/** Cloudflare's longest cache TTL (a year), for Browser Cache TTL and Edge Cache TTL. */
export const PAGE_RULE_TTL_MAX = 31_536_000;

/**
 * The largest value of an action outside the catalogue. Cloudflare's biggest, cache_key_fields, is
 * objects of lists three levels deep with at most 50 names per list, 150 characters each.
 */
export const PAGE_RULE_OTHER_VALUE_LIMITS = { depth: 4, entries: 500, stringLength: 1500 } as const;

/**
 * Whether a JSON value stays within PAGE_RULE_OTHER_VALUE_LIMITS. Walked without recursion, and it
 * stops at the first excess, so a value nested thousands deep costs no stack and little time.
 */
export function isBoundedJsonValue(
  value: unknown,
  limits: { depth: number; entries: number; stringLength: number } = PAGE_RULE_OTHER_VALUE_LIMITS,
): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let entries = 0;
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next.value === 'string') {
      if (next.value.length > limits.stringLength) return false;
    } else if (next.value !== null && typeof next.value === 'object') {
      if (next.depth >= limits.depth) return false;
      const children = Object.values(next.value);
      entries += children.length;
      if (entries > limits.entries) return false;
      for (const child of children) pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return true;
}

export const PAGE_RULE_TARGET_OPERATORS = [
  'matches',
  'contains',
  'equals',
  'not_equal',
  'not_contain',
] as const;

/**
 * Whether a forwarding destination is an absolute http(s) URL, as Cloudflare takes it: a host after
 * `http://` or `https://`, no spaces, and `$1`...`$9` (the URL pattern's `*` matches) anywhere.
 */
export function isForwardingDestination(url: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+\S*$/i.test(url)) return false;
  try {
    return new URL(url.replace(/\$[1-9]/g, 'x')).hostname !== '';
  } catch {
    return false;
  }
}

export const forwardingUrlValueSchema = z.object(
  {
    status_code: z.literal(REDIRECT_CODES, { error: 'The redirect code must be 301 or 302.' }),
    url: z
      .string({ error: 'The destination URL is required.' })
      .trim()
      .min(1, 'The destination URL is required.')
      .max(1500, 'The destination URL must be at most 1500 characters.')
      .refine(
        isForwardingDestination,
        'The destination URL must be a full http:// or https:// address, such as https://www.example.com/$1.',
      ),
  },
  { error: 'Forwarding URL needs a redirect code and a destination URL.' },
);
export type ForwardingUrlValue = z.infer<typeof forwardingUrlValueSchema>;

/**
 * An action's value: 'on'/'off' (toggle), an option's value (select), a string (number and text),
 * {status_code, url} (forwarding), or whatever Cloudflare holds for an action outside the catalogue.
 */
export type PageRuleActionValue = string | number | ForwardingUrlValue | Record<string, unknown>;

export interface PageRuleAction {
  id: string;
  value?: PageRuleActionValue;
}

/** A forwarding value as Cloudflare holds it: checked for its shape only, so any rule made elsewhere shows. */
const heldForwardingUrlValueSchema = z.object({ status_code: z.literal(REDIRECT_CODES), url: z.string() });

export function isForwardingUrlValue(value: unknown): value is ForwardingUrlValue {
  return heldForwardingUrlValueSchema.safeParse(value).success;
}

function valueSchemaFor(setting: PageRuleSetting): z.ZodType<PageRuleActionValue> {
  const { label } = setting;
  switch (setting.kind) {
    case 'toggle':
      return z.enum(['on', 'off'], { error: `${label} must be on or off.` });
    case 'select': {
      const options = setting.options ?? [];
      if (options.every((option) => typeof option.value === 'number')) {
        return z
          .number({ error: `${label} must be a number of seconds.` })
          .int()
          .min(0, `${label} must not be negative.`)
          .max(PAGE_RULE_TTL_MAX, `${label} must be at most ${PAGE_RULE_TTL_MAX} seconds (a year).`);
      }
      const values = [...options.map((option) => String(option.value)), ...(setting.otherValues ?? [])];
      return z.enum(values as [string, ...string[]], {
        error: `${label} must be one of ${values.join(', ')}.`,
      });
    }
    case 'number':
      return z
        .union([z.string(), z.number()], { error: `${label} is required.` })
        .transform(String)
        .pipe(
          z
            .string()
            .trim()
            .min(1, `${label} is required.`)
            .max(String(PAGE_RULE_TTL_MAX).length, `${label} must be at most ${PAGE_RULE_TTL_MAX}.`)
            .regex(/^\d+$/, `${label} must be a whole number.`)
            .refine(
              (digits) => Number(digits) <= PAGE_RULE_TTL_MAX,
              `${label} must be at most ${PAGE_RULE_TTL_MAX}.`,
            ),
        );
    case 'text':
      return z
        .string({ error: `${label} is required.` })
        .trim()
        .min(1, `${label} is required.`)
        .max(255, `${label} must be at most 255 characters.`);
    case 'forwarding':
      return forwardingUrlValueSchema;
  }
}

const cloudflareOnlyIds: ReadonlySet<string> = new Set(CLOUDFLARE_ONLY_PAGE_RULE_ACTIONS);

/**
 * One setting of a rule, checked against the catalogue: a known id and a value of its kind. A setting
 * outside the catalogue keeps its value as Cloudflare gave it, within PAGE_RULE_OTHER_VALUE_LIMITS.
 */
export const pageRuleActionSchema = z
  .object({
    id: z.string({ error: 'Every setting needs its id.' }).max(LOOKUP_ID_MAX, 'Unknown page rule setting.'),
    value: z.unknown().optional(),
  })
  .transform((action, ctx): PageRuleAction => {
    if (cloudflareOnlyIds.has(action.id)) {
      if (isBoundedJsonValue(action.value)) return action as PageRuleAction;
      ctx.addIssue({
        code: 'custom',
        message: `The value of "${action.id}" is larger or more deeply nested than Cloudflare allows.`,
        path: ['value'],
      });
      return z.NEVER;
    }
    const setting = pageRuleSetting(action.id);
    if (!setting) {
      ctx.addIssue({ code: 'custom', message: `Unknown page rule setting "${action.id}".`, path: ['id'] });
      return z.NEVER;
    }
    const parsed = valueSchemaFor(setting).safeParse(action.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: ['value', ...issue.path] });
      }
      return z.NEVER;
    }
    return { id: action.id, value: parsed.data };
  });

// The length cap leads the checks: Zod then refuses a longer list before parsing any setting in it.
export const pageRuleActionsSchema = z
  .array(pageRuleActionSchema, { error: 'actions must be a list of settings.' })
  .min(1, 'Add at least one setting.')
  .max(PAGE_RULE_ACTIONS_MAX, `A page rule holds at most ${PAGE_RULE_ACTIONS_MAX} settings.`)
  .superRefine((actions, ctx) => {
    const seen = new Set<string>();
    actions.forEach((action, index) => {
      if (seen.has(action.id)) {
        ctx.addIssue({
          code: 'custom',
          message: `The setting "${action.id}" is added twice.`,
          path: [index, 'id'],
        });
      }
      seen.add(action.id);
    });
    const exclusive = actions.find(
      (action) => pageRuleSetting(action.id)?.group === EXCLUSIVE_PAGE_RULE_GROUP,
    );
    if (exclusive && actions.length > 1) {
      const label = pageRuleSetting(exclusive.id)?.label ?? exclusive.id;
      ctx.addIssue({ code: 'custom', message: `${label} cannot be combined with other settings.` });
    }
  });

/** The URL the rule matches; the first target is the one the console uses. */
export const pageRuleTargetSchema = z.object({
  target: z.literal('url', { error: 'A target must be a URL target.' }),
  constraint: z.object({
    operator: z.enum(PAGE_RULE_TARGET_OPERATORS).default('matches'),
    value: z
      .string({ error: 'URL pattern is required.' })
      .trim()
      .min(1, 'URL pattern is required.')
      .max(1500, 'URL pattern must be at most 1500 characters.'),
  }),
});
export type PageRuleTarget = z.infer<typeof pageRuleTargetSchema>;

const pageRuleTargetsSchema = z
  .array(pageRuleTargetSchema, { error: 'targets must be a list holding the URL pattern.' })
  .length(1, 'A page rule has exactly one URL pattern.');

const statusSchema = z.enum(['active', 'disabled'], { error: 'Status must be active or disabled.' });
const prioritySchema = z
  .number({ error: 'Priority must be a number.' })
  .int()
  .min(1, 'Priority starts at 1.');

/** A page rule as the console shows it (its settings in the catalogue's terms). */
export const pageRuleSchema = z.object({
  id: z.string(),
  /** Cloudflare's order: a higher number wins over a lower one. */
  priority: z.number().int(),
  status: z.enum(['active', 'disabled']),
  targets: z.array(
    z.object({
      target: z.literal('url'),
      constraint: z.object({ operator: z.enum(PAGE_RULE_TARGET_OPERATORS), value: z.string() }),
    }),
  ),
  actions: z.array(
    z.object({
      id: z.string(),
      value: z
        .union([z.string(), z.number(), heldForwardingUrlValueSchema, z.record(z.string(), z.unknown())])
        .optional(),
    }),
  ),
});
export type PageRule = z.infer<typeof pageRuleSchema>;
export type PageRuleStatus = PageRule['status'];

/** POST /api/cloudflare/zones/{zone_id}/pagerules */
export const addPageRuleRequestSchema = z.object({
  targets: pageRuleTargetsSchema,
  actions: pageRuleActionsSchema,
  priority: prioritySchema.default(NEW_PAGE_RULE_PRIORITY),
  status: statusSchema.default('active'),
});
export type AddPageRuleRequest = z.input<typeof addPageRuleRequestSchema>;
export type PageRuleFields = z.output<typeof addPageRuleRequestSchema>;

/** PUT /api/cloudflare/zones/{zone_id}/pagerules/{pagerule_id}: the whole rule, priority and status kept. */
export const updatePageRuleRequestSchema = z.object({
  id: z.string().max(LOOKUP_ID_MAX, 'Not a page rule id.').optional(),
  targets: pageRuleTargetsSchema,
  actions: pageRuleActionsSchema,
  priority: prioritySchema,
  status: statusSchema,
});
export type UpdatePageRuleRequest = z.input<typeof updatePageRuleRequestSchema>;

/** Path params of .../pagerules/{pagerule_id}: the id goes into Cloudflare's URL, so only its form passes. */
export const pageRuleParamsSchema = zoneParamsSchema.extend({
  pagerule_id: cloudflareIdSchema('page rule'),
});

/** The URL pattern a rule matches: its first target's value. */
export function pageRuleUrlPattern(rule: Pick<PageRule, 'targets'>): string {
  return rule.targets[0]?.constraint.value ?? '';
}
