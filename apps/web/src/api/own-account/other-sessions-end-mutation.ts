import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ownAccountEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { ownAccountKeys } from './keys';

/** Signs out every session of the person but this browser's; answers how many ended. */
export function useEndOtherSessionsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(ownAccountEndpoints.endOtherSessions),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownAccountKeys.sessions() }),
  });
}
