import { useQuery } from '@tanstack/react-query';
import { apiKeyEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { apiKeyKeys } from './keys';

/** The person's API keys (their last four characters, never the keys). */
export function useApiKeysQuery() {
  return useQuery({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal }) => callEndpoint(apiKeyEndpoints.list, { signal }),
  });
}
