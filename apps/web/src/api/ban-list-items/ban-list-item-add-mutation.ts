import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddBanListItemRequest, BanListItem } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';
import { banListItemKeys, banListItemsPath } from './keys';

export function addBanListItem(listId: string, request: AddBanListItemRequest): Promise<BanListItem> {
  return api.post<BanListItem>(banListItemsPath(listId), request);
}

export function useAddBanListItemMutation(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: AddBanListItemRequest) => addBanListItem(listId, request),
    // Every page of the list shifts by one, and the ban lists' item count grows.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: banListItemKeys.list(listId) }),
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
      ]),
  });
}
