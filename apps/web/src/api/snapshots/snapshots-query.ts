import { useQuery, type QueryClient } from '@tanstack/react-query';
import { snapshotEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { snapshotKeys, type SnapshotFilter } from './keys';

export function fetchSnapshots(filter: SnapshotFilter) {
  return callEndpoint(snapshotEndpoints.list, {
    query: { kind: filter.kinds?.join(','), zone_id: filter.zoneId || undefined },
  });
}

/** The snapshots of `filter` that can still be restored or were restored, newest first. */
export function useSnapshotsQuery(filter: SnapshotFilter) {
  return useQuery({ queryKey: snapshotKeys.list(filter), queryFn: () => fetchSnapshots(filter) });
}

/** Fresh snapshots of `filter` (right after an action took one), through the same cache entry. */
export function refetchSnapshots(queryClient: QueryClient, filter: SnapshotFilter) {
  return queryClient.fetchQuery({
    queryKey: snapshotKeys.list(filter),
    queryFn: () => fetchSnapshots(filter),
    staleTime: 0,
  });
}
