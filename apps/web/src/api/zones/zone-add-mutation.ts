import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddZoneRequest, AddZoneResponse } from '@guardian/contract';
import { api } from '../../lib/api';
import { zoneKeys, zonesPath } from './keys';

export function addZone(request: AddZoneRequest): Promise<AddZoneResponse> {
  return api.post<AddZoneResponse>(zonesPath, request);
}

export function useAddZoneMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addZone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: zoneKeys.list() }),
  });
}
