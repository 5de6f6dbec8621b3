import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { userKeys } from './keys';

/** Changes a user's level (their sessions end); the last active administrator is refused (409). */
export function useSetUserLevelMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, level }: { id: number; level: number }) =>
      callEndpoint(userEndpoints.setLevel, { params: { id }, body: { level } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
