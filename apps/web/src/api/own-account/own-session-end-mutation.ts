import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ownAccountEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { ownAccountKeys } from './keys';

/** Ends one of the person's sessions; ending this browser's is signing out (the caller does the rest). */
export function useEndOwnSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(ownAccountEndpoints.endSession, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownAccountKeys.sessions() }),
  });
}
