import { useMutation, useQueryClient } from '@tanstack/react-query';
import { banListItemEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';
import { banListItemKeys } from './keys';

export function deleteBanListItem(listId: string, itemId: number) {
  return callEndpoint(banListItemEndpoints.remove, { params: { list_id: listId, item_id: itemId } });
}

export function useDeleteBanListItemMutation(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemId: number) => deleteBanListItem(listId, itemId),
    // Every page of the list shifts by one, and the ban lists' item count drops.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: banListItemKeys.list(listId) }),
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
      ]),
  });
}
