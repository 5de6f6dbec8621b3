import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListItemKeys } from '../ban-list-items/keys';
import { banListKeys, banListsPath } from './keys';

/** Replaces the list's local items with everything Cloudflare holds; answers the list with its new count. */
export function syncBanList(listId: string): Promise<BanList> {
  return api.post<BanList>(`${banListsPath}/${encodeURIComponent(listId)}/sync`);
}

export function useSyncBanListMutation(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => syncBanList(listId),
    // A failed sync keeps the old items (one transaction), so only a success re-fetches.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: banListItemKeys.list(listId) }),
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
      ]),
  });
}
