import { useMutation, useQueryClient } from '@tanstack/react-query';
import { planEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { planKeys } from './keys';

/** Deletes a plan nobody has (refused, 409 in words, for the default plan or one in use). */
export function useDeletePlanMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(planEndpoints.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.list() }),
  });
}
