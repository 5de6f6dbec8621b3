import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { zoneKeys, zonesPath } from './keys';

export function deleteZone(zoneId: string): Promise<void> {
  return api.delete<void>(`${zonesPath}/${encodeURIComponent(zoneId)}`);
}

export function useDeleteZoneMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteZone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: zoneKeys.list() }),
  });
}
