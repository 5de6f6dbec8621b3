import { useQuery } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** The person's servers' bans waiting for review (the oldest 200, and how many in all); refreshed each minute. */
export function useServerReviewsQuery() {
  return useQuery({
    queryKey: serverKeys.reviews(),
    queryFn: ({ signal }) => callEndpoint(serverEndpoints.reviewList, { signal }),
    refetchInterval: 60_000,
  });
}
