import { useMutation, useQueryClient } from '@tanstack/react-query';
import { planEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { planKeys } from './keys';

/** Makes a plan the one new people get. */
export function useMakeDefaultPlanMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(planEndpoints.makeDefault, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.list() }),
  });
}
