import { useQuery } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** The person's servers (their keys' last four characters), with last seen, counts and state; refreshed each minute. */
export function useServersQuery() {
  return useQuery({
    queryKey: serverKeys.list(),
    queryFn: ({ signal }) => callEndpoint(serverEndpoints.list, { signal }),
    refetchInterval: 60_000,
  });
}
