import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListKeys, banListsPath } from './keys';

/**
 * Pulls the lists of every account from Cloudflare: new lists appear, renamed ones are renamed,
 * vanished ones go. Items are not touched (each list's own sync brings them).
 */
export function updateBanLists(): Promise<BanList[]> {
  return api.post<BanList[]>(`${banListsPath}/update`);
}

export function useUpdateBanListsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBanLists,
    // Spec section 7: re-fetch the list. Nothing changes on a failure (all accounts or none).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
  });
}
