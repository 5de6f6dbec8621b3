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

/**
 * How the table shows an action: forwarding spelled out (spec), any other by its id and, when it has
 * one, its value (`cache_level: bypass`), so two rules with the same settings but other values differ.
 */
export function describePageRuleAction(action: PageRuleAction): string {
  if (action.id === 'forwarding_url' && isForwardingUrlValue(action.value)) {
    return `Forwarding URL (${action.value.status_code}) to ${action.value.url}`;
  }
  const value = action.value;
  if (value === undefined || value === null || value === '') return action.id;
  return `${action.id}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
}
