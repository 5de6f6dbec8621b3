import { useQuery } from '@tanstack/react-query';
import { banListItemEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys } from './keys';

export function fetchBanListItemHistory(listId: string, itemId: number, signal?: AbortSignal) {
  return callEndpoint(banListItemEndpoints.history, { params: { list_id: listId, item_id: itemId }, signal });
}

/** An item's history (added, expiry changes, removal), for its detail dialog. */
export function useBanListItemHistoryQuery(listId: string, itemId: number) {
  return useQuery({
    queryKey: banListItemKeys.history(listId, itemId),
    queryFn: ({ signal }) => fetchBanListItemHistory(listId, itemId, signal),
  });
}
