import { useQuery } from '@tanstack/react-query';
import { snapshotEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { snapshotKeys } from './keys';

/** How long a snapshot can be restored and how many a person keeps: the server's settings, read once. */
export function useSnapshotPolicyQuery() {
  return useQuery({
    queryKey: snapshotKeys.policy,
    queryFn: () => callEndpoint(snapshotEndpoints.policy),
    staleTime: Infinity,
  });
}
