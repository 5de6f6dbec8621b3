import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { banListItemEndpoints, PAGE_SIZE } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys, type BanListItemsPageQuery } from './keys';

export function fetchBanListItems(listId: string, query: BanListItemsPageQuery, signal?: AbortSignal) {
  return callEndpoint(banListItemEndpoints.page, {
    params: { list_id: listId },
    query: { ...query, search: query.search || undefined, per_page: PAGE_SIZE.banListItems },
    signal,
  });
}

/**
 * One page of a list's items, paged, searched and sorted by the server. The page on screen stays
 * while the next one loads, so paging and typing never blank the table.
 */
export function useBanListItemsQuery(listId: string, query: BanListItemsPageQuery) {
  return useQuery({
    queryKey: banListItemKeys.page(listId, query),
    queryFn: ({ signal }) => fetchBanListItems(listId, query, signal),
    placeholderData: keepPreviousData,
  });
}
