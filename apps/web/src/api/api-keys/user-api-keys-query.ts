import { useQuery } from '@tanstack/react-query';
import { apiKeyEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { apiKeyKeys } from './keys';

/** Another person's API keys, for an administrator (their last four characters, never the keys). */
export function useUserApiKeysQuery(userId: number) {
  return useQuery({
    queryKey: apiKeyKeys.ofUser(userId),
    queryFn: ({ signal }) => callEndpoint(apiKeyEndpoints.userList, { params: { id: userId }, signal }),
  });
}
