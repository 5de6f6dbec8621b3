import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** What the page's servers sent in each of the last 24 hours (their small charts); refreshed each minute. */
export function useServerHourlyQuery(serverIds: readonly number[]) {
  return useQuery({
    queryKey: serverKeys.hourly(serverIds),
    queryFn: ({ signal }) =>
      callEndpoint(serverEndpoints.hourly, { query: { server_ids: serverIds.join(',') }, signal }),
    enabled: serverIds.length > 0,
    // A server registered or revoked changes the ids: the charts stay drawn until the new answer.
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}
