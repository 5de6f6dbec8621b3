import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { planKeys } from '../plans/keys';
import { userKeys } from './keys';

/** Gives a person a plan; the plans' counts of people change with it. */
export function useSetUserPlanMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, planId }: { id: number; planId: number }) =>
      callEndpoint(userEndpoints.setPlan, { params: { id }, body: { plan_id: planId } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        queryClient.invalidateQueries({ queryKey: planKeys.list() }),
      ]),
  });
}
