import { useQuery } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** The person's server groups and their policies. */
export function useServerGroupsQuery() {
  return useQuery({
    queryKey: serverKeys.groups(),
    queryFn: ({ signal }) => callEndpoint(serverEndpoints.groupList, { signal }),
  });
}
