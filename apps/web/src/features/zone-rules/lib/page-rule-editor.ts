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

/** A newly added setting's value: a select's first option, a toggle on, forwarding 301, else empty. */
export function defaultSettingValue(setting: PageRuleSetting): PageRuleActionValue {
  switch (setting.kind) {
    case 'toggle':
      return 'on';
    case 'select':
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
