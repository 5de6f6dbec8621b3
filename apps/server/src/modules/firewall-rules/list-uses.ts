import type { BanListPurpose } from '@guardian/contract';
import type { CustomRule } from './custom-rules';

/** What the rules of a zone say about the ban lists they name, by list name (see listPurposesOf). */
export type ListPurposes = Map<string, BanListPurpose | null>;

/** Told what a zone's rules say its account's lists are for, whenever Guardian reads them. */
export type ListPurposesRead = (accountRef: number, purposes: ListPurposes) => Promise<void>;

/** Actions that keep a list's addresses out (or make them prove themselves): the list is a blocklist. */
const BLOCKING = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);

/**
 * `<field> in $name` for a list of any kind (`ip.src`, `ip.src.asnum`, `http.host`...), maybe negated
 * (`not ip.src in $name`, `not (ip.src in $name)`, `!(ip.src in $name)`). Cloudflare's managed lists
 * (`$cf.open_proxies`) are not the account's.
 */
const LIST_TEST = /(?:(\bnot\b|!)\s*\(?\s*)?\b[a-z][a-z0-9_.]*\s+in\s+\$([A-Za-z0-9_]+)(?![\w.])/g;

/**
 * What enabled rules say each list they test is for: a blocklist when a rule blocks or challenges its
 * addresses (or lets through everything not in it, `not ip.src in $list` with skip), an allowlist when
 * a rule skips for its addresses (or blocks everything not in it). Null for a list the rules disagree
 * on; a rule that only logs says nothing.
 */
export function listPurposesOf(rules: readonly CustomRule[]): ListPurposes {
  const purposes: ListPurposes = new Map();
  for (const rule of rules) {
    if (rule.enabled === false) continue;
    const blocks = BLOCKING.has(rule.action);
    if (!blocks && rule.action !== 'skip') continue;
    for (const [, negated, name] of rule.expression.matchAll(LIST_TEST)) {
      const purpose: BanListPurpose = blocks !== Boolean(negated) ? 'block' : 'allow';
      const known = purposes.get(name!);
      purposes.set(name!, known === undefined || known === purpose ? purpose : null);
    }
  }
  return purposes;
}
