import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zoneEndpoints, type AddZoneRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { zoneKeys } from './keys';

export function addZone(request: AddZoneRequest) {
  return callEndpoint(zoneEndpoints.add, { body: request });
}

export function useAddZoneMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addZone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: zoneKeys.all }),
  });
}
