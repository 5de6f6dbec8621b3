import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE, zoneEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { zoneKeys, type ZonesPageRequest } from './keys';

export function fetchZonesPage(request: ZonesPageRequest, signal?: AbortSignal) {
  return callEndpoint(zoneEndpoints.page, {
    query: { ...request, search: request.search || undefined, per_page: PAGE_SIZE.zones },
    signal,
  });
}

/**
 * One page of the zones screen, paged, searched and sorted by the server. The page on screen stays
 * while the next one loads, so paging, sorting and typing never blank the table.
 */
export function useZonesPageQuery(request: ZonesPageRequest) {
  return useQuery({
    queryKey: zoneKeys.page(request),
    queryFn: ({ signal }) => fetchZonesPage(request, signal),
    placeholderData: keepPreviousData,
  });
}
