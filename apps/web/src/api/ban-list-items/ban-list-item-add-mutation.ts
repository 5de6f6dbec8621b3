import { useMutation, useQueryClient } from '@tanstack/react-query';
import { banListItemEndpoints, type AddBanListItemRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';
import { banListItemKeys } from './keys';

export function addBanListItem(listId: string, request: AddBanListItemRequest) {
  return callEndpoint(banListItemEndpoints.add, { params: { list_id: listId }, body: request });
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
