import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zoneEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { zoneKeys } from './keys';

export function deleteZone(zoneId: string) {
  return callEndpoint(zoneEndpoints.remove, { params: { zone_id: zoneId } });
}

export function useDeleteZoneMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteZone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: zoneKeys.all }),
  });
}
