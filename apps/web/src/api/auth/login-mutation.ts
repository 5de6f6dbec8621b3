import { useMutation } from '@tanstack/react-query';
import { signInRoutes, type authEndpoints, type LoginRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

/** By the declaration's zod-free route: the login page has no room for zod (`callEndpoint`). */
export function login(credentials: LoginRequest) {
  return callEndpoint<typeof authEndpoints.login>(signInRoutes.login, { body: credentials });
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}
