import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { banListEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { untilEnded } from '../jobs/follow-job';
import { banListItemKeys } from '../ban-list-items/keys';
import { snapshotKeys } from '../snapshots/keys';
import { banListKeys } from './keys';

/** Empties every list of every account, at Cloudflare and locally. */
export async function cleanBanLists(queryClient: QueryClient) {
  // A long one answers 202 with its job: followed until it ends, so the button stays busy until then.
  return untilEnded(await callEndpoint(banListEndpoints.clean), queryClient);
}

export function useCleanBanListsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cleanBanLists(queryClient),
    // A failed clean leaves the lists emptied before the failure empty, so re-fetch either way.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
        queryClient.invalidateQueries({ queryKey: banListItemKeys.all }),
        // Clean All kept a snapshot of the lists first.
        queryClient.invalidateQueries({ queryKey: snapshotKeys.all }),
      ]),
  });
}
