import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userEndpoints, type CreateUserRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { userKeys } from './keys';

/** Creates a user; the answer holds the one-time set-password link when one was asked for (shown once). */
export function useCreateUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateUserRequest) => callEndpoint(userEndpoints.create, { body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
