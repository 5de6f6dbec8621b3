import { useMutation } from '@tanstack/react-query';
import { twoFactorEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

/** A new secret for an authenticator app; two-factor is not on until a code confirms it. */
export function useTwoFactorSetupMutation() {
  return useMutation({ mutationFn: () => callEndpoint(twoFactorEndpoints.setup) });
}
