import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { zoneEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { untilEnded } from '../jobs/follow-job';
import { zoneKeys } from './keys';

export async function syncZones(queryClient: QueryClient) {
  // A long one answers 202 with its job: followed until it ends, so the button stays busy until then.
  return untilEnded(await callEndpoint(zoneEndpoints.sync), queryClient);
}

export function useSyncZonesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => syncZones(queryClient),
    // A failed sync still refreshes every account that answered; only the failing one keeps its old mirror.
    onSettled: () => queryClient.invalidateQueries({ queryKey: zoneKeys.all }),
  });
}
