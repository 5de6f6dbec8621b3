import {
  EXCLUSIVE_PAGE_RULE_GROUP,
  PAGE_RULE_SETTINGS,
  REDIRECT_CODES,
  isForwardingUrlValue,
  pageRuleSetting,
  type PageRuleAction,
  type PageRuleActionValue,
  type PageRuleSetting,
} from '@guardian/contract';

/**
 * The settings the editor's dropdown offers (spec section 4): each setting once; nothing more after a
 * redirect (exclusive) first setting; otherwise only the first setting's group.
 */
export function offeredSettings(actions: readonly PageRuleAction[]): PageRuleSetting[] {
  const first = actions.map((action) => pageRuleSetting(action.id)).find((setting) => setting !== undefined);
  if (first?.group === EXCLUSIVE_PAGE_RULE_GROUP) return [];
  const chosen = new Set(actions.map((action) => action.id));
  return PAGE_RULE_SETTINGS.filter(
    (setting) => !chosen.has(setting.id) && (first === undefined || setting.group === first.group),
  );
}

/** Cloudflare's security levels, lowest first (`off` is Enterprise's only). */
const SECURITY_LEVELS = ['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack'];
const SECURITY_LEVEL = 'security_level';
/** A new Security Level setting's value when the zone's own level is unknown: never a quiet lowering. */
const FALLBACK_SECURITY_LEVEL = 'high';

const securityRank = (level: unknown) => SECURITY_LEVELS.indexOf(String(level));

/**
 * A newly added setting's value: a select's first option, a toggle on, forwarding 301, else empty.
 * Security Level starts at the zone's current level (`zoneSecurityLevel`, Cloudflare's zone setting),
 * or High when that is unknown: the first option, Essentially Off, quietly turned security off for
 * the rule's URLs (issue 35 item 12).
 */
export function defaultSettingValue(
  setting: PageRuleSetting,
  zoneSecurityLevel?: string | null,
): PageRuleActionValue {
  switch (setting.kind) {
    case 'toggle':
      return 'on';
    case 'select':
      if (setting.id === SECURITY_LEVEL) {
        const offered = setting.options?.some((option) => option.value === zoneSecurityLevel);
        return offered && zoneSecurityLevel ? zoneSecurityLevel : FALLBACK_SECURITY_LEVEL;
      }
      return setting.options?.[0]?.value ?? '';
    case 'forwarding':
      return { status_code: REDIRECT_CODES[0], url: '' };
    case 'number':
    case 'text':
      return '';
  }
}

/** A Cloudflare id in words: `cache_on_cookie` → "Cache On Cookie". */
const inWords = (id: string) => id.replace(/_/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase());

/**
 * How the table shows an action: forwarding spelled out (spec); any other by the catalogue's label
 * and the label of its value (`Cache Level: Bypass`), so two rules with the same settings but other
 * values differ. A setting or value made elsewhere that the catalogue lacks is put in words.
 */
export function describePageRuleAction(action: PageRuleAction): string {
  if (action.id === 'forwarding_url' && isForwardingUrlValue(action.value)) {
    return `Forwarding URL (${action.value.status_code}) to ${action.value.url}`;
  }
  const setting = pageRuleSetting(action.id);
  const label = setting?.label ?? inWords(action.id);
  const value = action.value;
  if (value === undefined || value === null || value === '') return label;
  if (typeof value === 'object') return `${label}: ${JSON.stringify(value)}`;
  switch (setting?.kind) {
    case 'toggle':
      return `${label}: ${value === 'on' ? 'On' : value === 'off' ? 'Off' : String(value)}`;
    case 'select': {
      const option = setting.options?.find((known) => String(known.value) === String(value));
      return `${label}: ${option?.label ?? inWords(String(value))}`;
    }
    default:
      return `${label}: ${String(value)}`;
  }
}

/** A security level by the catalogue's label (`high` → "High"), else in words. */
function securityLevelLabel(level: string): string {
  const option = pageRuleSetting(SECURITY_LEVEL)?.options?.find((known) => known.value === level);
  return option?.label ?? inWords(level);
}

/**
 * The warning for a Security Level setting below the zone's own level (`zoneSecurityLevel`; when it
 * is unknown, below Cloudflare's default, Medium): the rule lowers security for the URLs it matches.
 * Null for any other setting, or a level that lowers nothing.
 */
export function securityLevelWarning(
  action: PageRuleAction,
  zoneSecurityLevel?: string | null,
): string | null {
  if (action.id !== SECURITY_LEVEL || securityRank(action.value) < 0) return null;
  const zoneKnown = securityRank(zoneSecurityLevel) >= 0 && zoneSecurityLevel;
  const baseline = zoneKnown ? zoneSecurityLevel : 'medium';
  if (securityRank(action.value) >= securityRank(baseline)) return null;
  const level = securityLevelLabel(String(action.value));
  return zoneKnown
    ? `${level} lowers security for the URLs this rule matches: the zone's Security Level is ${securityLevelLabel(baseline)}.`
    : `${level} lowers security for the URLs this rule matches, below Cloudflare's default (Medium).`;
}
