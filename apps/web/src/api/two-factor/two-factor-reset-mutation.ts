import { useMutation } from '@tanstack/react-query';
import { twoFactorEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

/**
 * An administrator turns a person's two-factor off (lost phone); their sessions end. The page that
 * shows people refreshes its own rows (ResetTwoFactorAction's `onReset`).
 */
export function useTwoFactorResetMutation() {
  return useMutation({
    mutationFn: (userId: number) => callEndpoint(twoFactorEndpoints.reset, { params: { id: userId } }),
  });
}
