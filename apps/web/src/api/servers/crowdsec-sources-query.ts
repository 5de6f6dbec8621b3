import { useQuery } from '@tanstack/react-query';
import { crowdsecEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** The person's CrowdSec servers and their Local APIs: last pull, decisions mirrored, errors; refreshed each 30 s. */
export function useCrowdsecSourcesQuery() {
  return useQuery({
    queryKey: serverKeys.crowdsec(),
    queryFn: ({ signal }) => callEndpoint(crowdsecEndpoints.list, { signal }),
    refetchInterval: 30_000,
  });
}
