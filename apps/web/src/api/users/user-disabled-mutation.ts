import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { userKeys } from './keys';

/**
 * Disables a user (their sessions end; the last active administrator is refused) or lets them sign in
 * again.
 */
export function useSetUserDisabledMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) =>
      disabled
        ? callEndpoint(userEndpoints.disable, { params: { id } })
        : callEndpoint(userEndpoints.enable, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
