import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** Deletes a group no server is in. */
export function useRemoveServerGroupMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(serverEndpoints.groupRemove, { params: { group_id: id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverKeys.groups() }),
  });
}
