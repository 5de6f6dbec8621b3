import { useMutation, useQueryClient } from '@tanstack/react-query';
import { twoFactorEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { twoFactorKeys } from './keys';

/** Requires two-factor of everyone (PUT) or stops requiring it (DELETE). */
export function useTwoFactorPolicyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) =>
      callEndpoint(required ? twoFactorEndpoints.require : twoFactorEndpoints.unrequire),
    onSuccess: (policy) => {
      queryClient.setQueryData(twoFactorKeys.policy(), policy);
      return queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() });
    },
  });
}
