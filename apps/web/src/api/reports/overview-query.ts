import { useQuery } from '@tanstack/react-query';
import { reportEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { reportKeys } from './keys';

export function fetchOverview(signal?: AbortSignal) {
  return callEndpoint(reportEndpoints.overview, { signal });
}

/** The overview's four live tiles; read again each minute while the page is open (the server keeps it a minute). */
export function useOverviewQuery() {
  return useQuery({
    queryKey: reportKeys.overview(),
    queryFn: ({ signal }) => fetchOverview(signal),
    staleTime: 60_000,
    refetchInterval: 60_000,
  });
}
