import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { reportEndpoints, type ActivityQuery } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { reportKeys } from './keys';

/** The server keeps the Activity report 10 seconds: a change just made shows soon. */
const ACTIVITY_STALE_MS = 10_000;

export function fetchActivityReport(query: ActivityQuery, signal?: AbortSignal) {
  return callEndpoint(reportEndpoints.activity, { query, signal });
}

/**
 * Guardian's own changes as chart data (Reports > Activity), for the filters. As the other reports, a
 * change of filters keeps the last answer on the page until the new one comes.
 */
export function useActivityReportQuery(query: ActivityQuery) {
  return useQuery({
    queryKey: reportKeys.activity(query),
    queryFn: ({ signal }) => fetchActivityReport(query, signal),
    staleTime: ACTIVITY_STALE_MS,
    placeholderData: keepPreviousData,
  });
}
