import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userEndpoints, type PasswordSetup } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { userKeys } from './keys';

/**
 * Replaces a user's password with a new one or a one-time set-password link (in the answer, shown
 * once); their sessions end.
 */
export function useResetUserPasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, setup }: { id: number; setup: PasswordSetup }) =>
      callEndpoint(userEndpoints.resetPassword, { params: { id }, body: setup }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
