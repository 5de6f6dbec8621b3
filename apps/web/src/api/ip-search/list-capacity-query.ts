import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listCapacityEndpoints, type ListPlan } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';

/**
 * Query keys of the accounts' Lists capacity (the Ban Lists screen, the Add and Ban everywhere dialogs).
 * Under the ban lists' key, as the capacity counts them: whatever reads the lists again (an item added,
 * deleted or imported, a list added or deleted, Clean All, a Restore, an account added or deleted) reads
 * the capacity again too, with no call of its own to forget.
 */
export const listCapacityKeys = {
  all: [...banListKeys.list(), 'capacity'] as const,
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
