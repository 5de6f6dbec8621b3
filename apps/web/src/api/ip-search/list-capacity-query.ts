import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listCapacityEndpoints, type ListPlan } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

/** Query keys of the accounts' Lists capacity (the Ban Lists screen, the Add and Ban everywhere dialogs). */
export const listCapacityKeys = {
  all: ['list-capacity'] as const,
  list: () => [...listCapacityKeys.all, 'list'] as const,
};

export function fetchListCapacity(signal?: AbortSignal) {
  return callEndpoint(listCapacityEndpoints.list, { signal });
}

/** Each of the person's accounts: lists and items used of its plan's limits. */
export function useListCapacityQuery() {
  return useQuery({ queryKey: listCapacityKeys.list(), queryFn: ({ signal }) => fetchListCapacity(signal) });
}

/** The account's plan for its quotas (null: back to what Guardian infers). */
export function useSetListPlanMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, plan }: { accountId: string; plan: ListPlan | null }) =>
      callEndpoint(listCapacityEndpoints.setPlan, { params: { account_id: accountId }, body: { plan } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listCapacityKeys.all }),
  });
}
