import { useMutation, useQueryClient } from '@tanstack/react-query';
import { banListItemEndpoints, type ItemExpiry } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys } from './keys';

export function changeBanListItemExpiry(listId: string, itemId: number, expires: ItemExpiry) {
  return callEndpoint(banListItemEndpoints.changeExpiry, {
    params: { list_id: listId, item_id: itemId },
    body: { expires },
  });
}

/** Changes an item's expiry; the list's pages (and the item's history, kept under them) are read again. */
export function useChangeBanListItemExpiryMutation(listId: string, itemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (expires: ItemExpiry) => changeBanListItemExpiry(listId, itemId, expires),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: banListItemKeys.list(listId) }),
  });
}
