import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';
import { banListItemKeys, banListItemsPath } from './keys';

export function deleteBanListItem(listId: string, itemId: number): Promise<void> {
  return api.delete<void>(`${banListItemsPath(listId)}/${itemId}`);
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
