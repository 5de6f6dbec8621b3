import { useMutation, useQueryClient } from '@tanstack/react-query';
import { twoFactorEndpoints, type TwoFactorConfirmRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { twoFactorKeys } from './keys';

/** Turns two-factor off, confirmed with the password or a code. */
export function useTwoFactorDisableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmation: TwoFactorConfirmRequest) =>
      callEndpoint(twoFactorEndpoints.disable, { body: confirmation }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() }),
  });
}
