import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** A new signing secret for a server's signed webhook: the answer is the only time it is shown. */
export function useRenewSigningSecretMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(serverEndpoints.signingSecret, { params: { server_id: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serverKeys.list() }),
  });
}
