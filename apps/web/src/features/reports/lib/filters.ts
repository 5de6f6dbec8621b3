import { useSearchParams } from 'react-router';
import { CLOUDFLARE_ID_PATTERN, REPORT_RANGES, type ReportQuery, type ReportRange } from '@guardian/contract';

export const RANGE_LABELS: Record<ReportRange, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
};

/** The range the address asks for (?range=), 24 hours when it asks none or one there is not. */
export function rangeIn(params: URLSearchParams): ReportRange {
  const asked = params.get('range');
  return REPORT_RANGES.includes(asked as ReportRange) ? (asked as ReportRange) : '24h';
}

/**
 * A report's filters, kept in the address (?account=&zone=&range=): a report can be linked to, and Back
 * returns to the last one. An id that is not Cloudflare's shape is no filter.
 */
export function useReportFilters() {
  const [params, setParams] = useSearchParams();
  const range = rangeIn(params);
  const account = params.get('account') ?? '';
  const zone = params.get('zone') ?? '';
  const query: ReportQuery = {
    range,
    ...(CLOUDFLARE_ID_PATTERN.test(account) ? { account_id: account } : {}),
    ...(CLOUDFLARE_ID_PATTERN.test(zone) ? { zone_id: zone } : {}),
  };
  const set = (next: { account?: string; zone?: string; range?: ReportRange }) => {
    const merged = { account: query.account_id ?? '', zone: query.zone_id ?? '', range, ...next };
    const search = new URLSearchParams();
    if (merged.account) search.set('account', merged.account);
    if (merged.zone) search.set('zone', merged.zone);
    if (merged.range !== '24h') search.set('range', merged.range);
    setParams(search, { replace: false });
  };
  return { query, set };
}
