import { useMutation, useQueryClient } from '@tanstack/react-query';
import { twoFactorEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { twoFactorKeys } from './keys';

/** Turns two-factor on with a code of the new secret; the answer is the only time the recovery codes show. */
export function useTwoFactorEnableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => callEndpoint(twoFactorEndpoints.enable, { body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status() }),
  });
}
