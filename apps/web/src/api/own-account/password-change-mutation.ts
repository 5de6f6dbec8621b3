import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ownAccountEndpoints, type ChangePasswordRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { setToken } from '../../lib/auth-token';
import { ownAccountKeys } from './keys';

/**
 * Changes the person's password with the current one. The server ends every session, this one too, and
 * answers a new session for this browser: it is stored as a sign-in's token is, so the person carries on.
 */
export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ChangePasswordRequest) =>
      callEndpoint(ownAccountEndpoints.changePassword, { body: request }),
    onSuccess: ({ token }) => {
      setToken(token);
      return queryClient.invalidateQueries({ queryKey: ownAccountKeys.sessions() });
    },
  });
}
