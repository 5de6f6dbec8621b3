import { useSearchParams } from 'react-router';
import {
  CLOUDFLARE_ID_PATTERN,
  type ActivityLink,
  type ActivityQuery,
  type AuditOutcome,
  type ReportRange,
} from '@guardian/contract';
import { timeZoneName } from '../../../components/charts/format';
import { rangeIn } from './filters';

/**
 * The Activity report's filters, kept in the address (?account=&range=&scope=everyone) as the other
 * reports keep theirs; the time zone is the browser's, so days start at the person's midnight.
 * `everyone` is for administrators only: anyone else asks for their own changes whatever the address says.
 */
export function useActivityFilters(isAdmin: boolean) {
  const [params, setParams] = useSearchParams();
  const range = rangeIn(params);
  const account = params.get('account') ?? '';
  const scope = isAdmin && params.get('scope') === 'everyone' ? 'everyone' : 'mine';
  const query: ActivityQuery = {
    range,
    scope,
    tz: timeZoneName(),
    ...(CLOUDFLARE_ID_PATTERN.test(account) ? { account_id: account } : {}),
  };
  const set = (next: { account?: string; range?: ReportRange; scope?: 'mine' | 'everyone' }) => {
    const merged = { account: query.account_id ?? '', range, scope, ...next };
    const search = new URLSearchParams();
    if (merged.account) search.set('account', merged.account);
    if (merged.range !== '24h') search.set('range', merged.range);
    if (merged.scope === 'everyone') search.set('scope', 'everyone');
    setParams(search, { replace: false });
  };
  return { query, set };
}

/**
 * The Activity table's address showing the changes a report's link selects, narrowed further where a
 * row or bucket asks (an outcome, a bucket's own from and to).
 */
export function activityHref(
  link: ActivityLink,
  narrower: { outcome?: AuditOutcome; from?: string; to?: string } = {},
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...link.filters, ...narrower }))
    if (value) search.set(name, value);
  return `${link.path}?${search.toString()}`;
}
