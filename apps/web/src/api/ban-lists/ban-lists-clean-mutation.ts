import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListItemKeys } from '../ban-list-items/keys';
import { banListKeys, banListsPath } from './keys';

/** Empties every list of every account, at Cloudflare and locally. */
export function cleanBanLists(): Promise<BanList[]> {
  return api.post<BanList[]>(`${banListsPath}/clean`);
}

export function useCleanBanListsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cleanBanLists,
    // A failed clean leaves the lists emptied before the failure empty, so re-fetch either way.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
        queryClient.invalidateQueries({ queryKey: banListItemKeys.all }),
      ]),
  });
}
