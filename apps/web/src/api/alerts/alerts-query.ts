import { useInfiniteQuery } from '@tanstack/react-query';
import { alertEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { alertKeys, type AlertFilters } from './keys';

/** Alerts per page of the alerts page. */
export const ALERTS_PAGE_SIZE = 25;

/** The person's alerts, most recently seen first, a page at a time (Load more asks for the next). */
export function useAlertsQuery(filters: AlertFilters) {
  return useInfiniteQuery({
    queryKey: alertKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(alertEndpoints.list, {
        query: {
          state: filters.state || undefined,
          kind: filters.kind || undefined,
          severity: filters.severity || undefined,
          limit: ALERTS_PAGE_SIZE,
          before: pageParam,
        },
        signal,
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
