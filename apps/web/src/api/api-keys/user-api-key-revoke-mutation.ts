import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeyEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { apiKeyKeys } from './keys';

/** An administrator revokes one of a person's API keys. */
export function useRevokeUserApiKeyMutation(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) =>
      callEndpoint(apiKeyEndpoints.userRevoke, { params: { id: userId, key_id: keyId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.ofUser(userId) }),
  });
}
