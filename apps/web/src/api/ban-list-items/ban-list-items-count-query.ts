import { useQuery } from '@tanstack/react-query';
import { banListItemEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys } from './keys';

export function fetchBanListItemsCount(listId: string, search: string, signal?: AbortSignal) {
  return callEndpoint(banListItemEndpoints.count, { params: { list_id: listId }, query: { search }, signal });
}

/**
 * The exact number of items a search matches. Asked for only once a page of the search says its count
 * stopped short (`enabled`): the page comes first, and a narrow search needs no second call. The
 * server counts once per version of the list; a failure leaves the page's own count on screen.
 */
export function useBanListItemsCountQuery(listId: string, search: string, enabled: boolean) {
  return useQuery({
    queryKey: banListItemKeys.count(listId, search),
    queryFn: ({ signal }) => fetchBanListItemsCount(listId, search, signal),
    enabled,
  });
}
