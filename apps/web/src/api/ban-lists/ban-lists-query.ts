import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListKeys, banListsPath } from './keys';

export function fetchBanLists(signal?: AbortSignal): Promise<BanList[]> {
  return api.get<BanList[]>(banListsPath, { signal });
}

export const banListsQueryOptions = () =>
  queryOptions({ queryKey: banListKeys.list(), queryFn: ({ signal }) => fetchBanLists(signal) });

export function useBanListsQuery() {
  return useQuery(banListsQueryOptions());
}

/** One list (its name, account and kind) for the items screen, from the ban lists' cache when there. */
export function useBanListQuery(listId: string) {
  return useQuery({
    ...banListsQueryOptions(),
    select: (banLists) => banLists.find((banList) => banList.list_id === listId),
  });
}
