import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE, type BanListItemsPage } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListItemKeys, banListItemsPath, type BanListItemsPageQuery } from './keys';

export function fetchBanListItems(
  listId: string,
  query: BanListItemsPageQuery,
  signal?: AbortSignal,
): Promise<BanListItemsPage> {
  return api.get<BanListItemsPage>(banListItemsPath(listId), {
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
