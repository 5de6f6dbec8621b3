import { pageRuleSetting, type PageRuleAction, type PageRuleActionValue } from '@guardian/contract';
import { AppError } from '../../app-error';

/**
 * The spec's page-rule catalogue predates some of Cloudflare's changes. This is the one place that
 * translates between the console's settings and Cloudflare's page-rule actions (README.md here).
 */

export interface CloudflarePageRuleAction {
  id: string;
  value?: unknown;
}

function invert(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [value, key]));
}

/** Console ids that Cloudflare spells differently. */
const CLOUDFLARE_IDS: Record<string, string> = {
  respect_strong_etags: 'respect_strong_etag',
  browser_integrity_check: 'browser_check',
};
const CONSOLE_IDS = invert(CLOUDFLARE_IDS);

/** Cloudflare takes these without a value: present means on, and there is no "off". */
const VALUELESS = new Set(['always_use_https', 'disable_apps', 'disable_performance', 'disable_security']);

/** Select values Cloudflare names differently (console value -> Cloudflare value). */
const CLOUDFLARE_VALUES: Record<string, Record<string, string>> = {
  cache_level: { standard: 'aggressive' },
  rocket_loader: { automatic: 'on' },
};
const CONSOLE_VALUES = Object.fromEntries(
  Object.entries(CLOUDFLARE_VALUES).map(([id, values]) => [id, invert(values)]),
);

/** Settings and values of the spec that Cloudflare no longer has: refused with the reason. */
const RETIRED_SETTINGS: Record<string, string> = {
  server_side_exclude: 'Cloudflare retired Server Side Excludes: remove the setting.',
  disable_railgun: 'Cloudflare retired Railgun: remove the Disable Railgun setting.',
};
const RETIRED_VALUES: Record<string, Record<string, string>> = {
  rocket_loader: { manual: 'Cloudflare no longer offers a manual Rocket Loader: choose Automatic or Off.' },
};

function toCloudflareAction(action: PageRuleAction): CloudflarePageRuleAction {
  const setting = pageRuleSetting(action.id);
  // Cloudflare-only actions (outside the catalogue) go back exactly as Cloudflare gave them.
  if (!setting) return action;
  const retired = RETIRED_SETTINGS[action.id] ?? RETIRED_VALUES[action.id]?.[String(action.value)];
  if (retired) throw new AppError('BAD_REQUEST', retired);
  const id = CLOUDFLARE_IDS[action.id] ?? action.id;
  if (VALUELESS.has(action.id)) {
    if (action.value === 'off') {
      throw new AppError(
        'BAD_REQUEST',
        `${setting.label} has no off state at Cloudflare: remove the setting instead.`,
      );
    }
    return { id };
  }
  if (setting.kind === 'number') return { id, value: Number(action.value) };
  const renamed = CLOUDFLARE_VALUES[action.id]?.[String(action.value)];
  return { id, value: renamed ?? action.value };
}

/** The console's (already validated) settings as Cloudflare's actions; a retired one is a 400. */
export function toCloudflareActions(actions: PageRuleAction[]): CloudflarePageRuleAction[] {
  return actions.map(toCloudflareAction);
}

function toConsoleAction(action: CloudflarePageRuleAction): PageRuleAction {
  const id = CONSOLE_IDS[action.id] ?? action.id;
  const setting = pageRuleSetting(id);
  if (!setting)
    return action.value === undefined ? { id } : { id, value: action.value as PageRuleActionValue };
  if (VALUELESS.has(id)) return { id, value: 'on' };
  if (setting.kind === 'number') return { id, value: String(action.value) };
  const value = action.value as PageRuleActionValue;
  const renamed = typeof value === 'string' ? CONSOLE_VALUES[id]?.[value] : undefined;
  return { id, value: renamed ?? value };
}

/** Cloudflare's actions in the console's terms. */
export function toConsoleActions(actions: CloudflarePageRuleAction[]): PageRuleAction[] {
  return actions.map(toConsoleAction);
}
