import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeyEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { apiKeyKeys } from './keys';

export function useRevokeApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(apiKeyEndpoints.revoke, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list() }),
  });
}
