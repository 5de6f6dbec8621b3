import { useMutation } from '@tanstack/react-query';
import { signInRoutes, type authEndpoints, type LoginTwoFactorRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

/** Sign-in's second step: the password step's challenge and a code. */
export function loginTwoFactor(request: LoginTwoFactorRequest) {
  return callEndpoint<typeof authEndpoints.loginTwoFactor>(signInRoutes.loginTwoFactor, { body: request });
}

export function useLoginTwoFactorMutation() {
  return useMutation({ mutationFn: loginTwoFactor });
}
