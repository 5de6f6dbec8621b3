import { queryOptions, useQuery } from '@tanstack/react-query';
import { banListEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from './keys';

export function fetchBanLists(signal?: AbortSignal) {
  return callEndpoint(banListEndpoints.list, { signal });
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
