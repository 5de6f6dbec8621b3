import { useMutation, useQueryClient } from '@tanstack/react-query';
import { passwordLinkEndpoints, type PasswordLinkUseRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { passwordLinkKeys } from './keys';

/** Sets the person's password with the link; the link is used up and their earlier sessions end. */
export function usePasswordLinkUseMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PasswordLinkUseRequest) =>
      callEndpoint(passwordLinkEndpoints.use, { body: request }),
    onSuccess: () => queryClient.removeQueries({ queryKey: passwordLinkKeys.all }),
  });
}
