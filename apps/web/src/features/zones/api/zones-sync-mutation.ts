import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncZonesResponse } from '@guardian/contract';
import { api } from '../../../lib/api';
import { zoneKeys } from './keys';

export function syncZones(): Promise<SyncZonesResponse> {
  return api.post<SyncZonesResponse>('/cloudflare/zones/sync');
}

export function useSyncZonesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncZones,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: zoneKeys.list() }),
  });
}
