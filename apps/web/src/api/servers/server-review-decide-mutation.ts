import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** Approves (queued for their lists, as any ban) or rejects bans waiting for review. */
export function useDecideReviewsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, decision }: { ids: number[]; decision: 'approve' | 'reject' }) =>
      callEndpoint(decision === 'approve' ? serverEndpoints.reviewApprove : serverEndpoints.reviewReject, {
        body: { ids },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverKeys.all }),
  });
}
