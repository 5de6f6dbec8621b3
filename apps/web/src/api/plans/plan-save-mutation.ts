import { useMutation, useQueryClient } from '@tanstack/react-query';
import { planEndpoints, type PlanFields } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { planKeys } from './keys';

/** Creates a plan (no id) or changes one. */
export function useSavePlanMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fields }: { id?: number; fields: PlanFields }) =>
      id === undefined
        ? callEndpoint(planEndpoints.create, { body: fields })
        : callEndpoint(planEndpoints.update, { params: { id }, body: fields }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
