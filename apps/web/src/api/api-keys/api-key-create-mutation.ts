import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeyEndpoints, type CreateApiKeyRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { apiKeyKeys } from './keys';

/** Creates a key; the answer is the only time the whole key is shown. */
export function useCreateApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateApiKeyRequest) => callEndpoint(apiKeyEndpoints.create, { body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list() }),
  });
}
