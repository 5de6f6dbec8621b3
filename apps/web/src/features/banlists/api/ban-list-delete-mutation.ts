import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../../lib/api';
import { banListKeys } from './keys';

/** Deletes by Guardian's id of the list (not Cloudflare's list id). */
export function deleteBanList(banList: BanList): Promise<void> {
  return api.delete<void>(`/cloudflare/banlists/${banList.id}`);
}

export function useDeleteBanListMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBanList,
    onSuccess: (_, banList) => {
      queryClient.removeQueries({ queryKey: banListKeys.items(banList.list_id) });
      return queryClient.invalidateQueries({ queryKey: banListKeys.list() });
    },
  });
}
