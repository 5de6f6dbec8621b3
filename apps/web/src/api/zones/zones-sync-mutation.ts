import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncZonesResponse } from '@guardian/contract';
import { api } from '../../lib/api';
import { zoneKeys, zonesPath } from './keys';

export function syncZones(): Promise<SyncZonesResponse> {
  return api.post<SyncZonesResponse>(`${zonesPath}/sync`);
}

export function useSyncZonesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncZones,
    // A failed sync still refreshes every account that answered; only the failing one keeps its old mirror.
    onSettled: () => queryClient.invalidateQueries({ queryKey: zoneKeys.list() }),
  });
}
