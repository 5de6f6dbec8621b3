import { useQueries, useQueryClient } from '@tanstack/react-query';
import { rulesOverviewEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { rulesOverviewKeys } from './keys';

export function getRulesOverview(zoneIds: readonly string[], search: string, signal?: AbortSignal) {
  return callEndpoint(rulesOverviewEndpoints.get, {
    query: { zone_ids: zoneIds.join(','), search: search || undefined },
    signal,
  });
}

/**
 * The rules of `batches` of zones (each at most the server's 25), read one batch after the other: the
 * page shows its progress, and Cloudflare is never asked for a whole page at once. Each batch is a
 * query of its own, so a batch that fails does not hide the others, and a batch read before (same
 * zones, same search) shows at once.
 */
export function useRulesOverviewBatches(batches: readonly (readonly string[])[], search: string) {
  const queryClient = useQueryClient();
  const answered = (zoneIds: readonly string[]) => {
    const status = queryClient.getQueryState(rulesOverviewKeys.batch(zoneIds, search))?.status;
    return status === 'success' || status === 'error';
  };
  // Answered (or failed) batches lead; the first one not yet answered is the one being read.
  const first = batches.findIndex((zoneIds) => !answered(zoneIds));
  const reading = first === -1 ? batches.length : first;
  return useQueries({
    queries: batches.map((zoneIds, index) => ({
      queryKey: rulesOverviewKeys.batch(zoneIds, search),
      queryFn: ({ signal }: { signal: AbortSignal }) => getRulesOverview(zoneIds, search, signal),
      enabled: index <= reading,
      staleTime: 60_000,
      retry: false,
    })),
  });
}
