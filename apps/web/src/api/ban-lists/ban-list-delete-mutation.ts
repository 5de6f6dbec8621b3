import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListItemKeys } from '../ban-list-items/keys';
import { banListKeys, banListsPath } from './keys';

/** Deletes by Guardian's id of the list (not Cloudflare's list id). */
export function deleteBanList(banList: BanList): Promise<void> {
  return api.delete<void>(`${banListsPath}/${banList.id}`);
}

export function useDeleteBanListMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBanList,
    onSuccess: (_, banList) => {
      queryClient.removeQueries({ queryKey: banListItemKeys.list(banList.list_id) });
      return queryClient.invalidateQueries({ queryKey: banListKeys.list() });
    },
  });
}
