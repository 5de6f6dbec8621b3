import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** Revokes a server's key: its calls are refused from now on. */
export function useRevokeServerMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(serverEndpoints.revoke, { params: { server_id: id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverKeys.list() }),
  });
}
