import { useQuery } from '@tanstack/react-query';
import { ownAccountEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { ownAccountKeys } from './keys';

/** The person's open sessions, newest first; `current` is this browser's. */
export function useOwnSessionsQuery() {
  return useQuery({
    queryKey: ownAccountKeys.sessions(),
    queryFn: ({ signal }) => callEndpoint(ownAccountEndpoints.sessions, { signal }),
  });
}
