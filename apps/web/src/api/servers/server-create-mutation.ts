import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverEndpoints, type CreateServerRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** Registers a server; the answer is the only time its key is shown. */
export function useCreateServerMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateServerRequest) => callEndpoint(serverEndpoints.create, { body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serverKeys.all }),
  });
}
