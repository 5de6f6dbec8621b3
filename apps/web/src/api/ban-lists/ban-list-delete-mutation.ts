import { useMutation, useQueryClient } from '@tanstack/react-query';
import { banListEndpoints, type BanList } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys } from '../ban-list-items/keys';
import { snapshotKeys } from '../snapshots/keys';
import { banListKeys } from './keys';

/** Deletes by Guardian's id of the list (not Cloudflare's list id). */
export function deleteBanList(banList: BanList) {
  return callEndpoint(banListEndpoints.remove, { params: { id: banList.id } });
}

export function useDeleteBanListMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBanList,
    onSuccess: (_, banList) => {
      queryClient.removeQueries({ queryKey: banListItemKeys.list(banList.list_id) });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
        // The delete kept a snapshot of the list first.
        queryClient.invalidateQueries({ queryKey: snapshotKeys.all }),
      ]);
    },
  });
}
