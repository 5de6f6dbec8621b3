import { useMutation, useQueryClient } from '@tanstack/react-query';
import { twoFactorEndpoints, type TwoFactorConfirmRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { twoFactorKeys } from './keys';

/** New recovery codes (the old ones stop working), confirmed with the password or a code. */
export function useRecoveryCodesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmation: TwoFactorConfirmRequest) =>
      callEndpoint(twoFactorEndpoints.regenerateRecoveryCodes, { body: confirmation }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() }),
  });
}
