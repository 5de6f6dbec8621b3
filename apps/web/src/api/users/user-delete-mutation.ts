import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { userKeys } from './keys';

/** Deletes a user and everything of theirs in Guardian; the last active administrator is refused (409). */
export function useDeleteUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(userEndpoints.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
