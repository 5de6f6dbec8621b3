import { useQuery } from '@tanstack/react-query';
import { ipSearchEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { ipSearchKeys } from './keys';

export function fetchIpSearch(q: string, signal?: AbortSignal) {
  return callEndpoint(ipSearchEndpoints.search, { query: { q }, signal });
}

/**
 * Where `q` (an address, CIDR, hostname or AS number) is listed across the person's lists. Asked only
 * for a submitted search; a refused search (400) is not asked again on its own.
 */
export function useIpSearchQuery(q: string) {
  return useQuery({
    queryKey: ipSearchKeys.search(q),
    queryFn: ({ signal }) => fetchIpSearch(q, signal),
    enabled: q !== '',
    retry: false,
  });
}
