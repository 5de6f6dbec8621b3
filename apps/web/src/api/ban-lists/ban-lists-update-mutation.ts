import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { banListEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { untilEnded } from '../jobs/follow-job';
import { banListKeys } from './keys';

/**
 * Pulls the lists of every account from Cloudflare: new lists appear, renamed ones are renamed,
 * vanished ones go. Items are not touched (each list's own sync brings them).
 */
export async function updateBanLists(queryClient: QueryClient) {
  // A long one answers 202 with its job: followed until it ends, so the button stays busy until then.
  return untilEnded(await callEndpoint(banListEndpoints.update), queryClient);
}

export function useUpdateBanListsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => updateBanLists(queryClient),
    // Spec section 7: re-fetch the list. Nothing changes on a failure (all accounts or none).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
  });
}
