import { loginRequestSchema, loginResponseSchema, sessionTokenSchema } from './auth.schemas';
import { loginTwoFactorRequestSchema } from '../two-factor/two-factor.schemas';
import { currentUserSchema } from '../users/users.schemas';
import { endpointGroup, noContentSchema, publicErrors, signedInErrors } from '../shared/endpoint';
import { signInRoutes } from './sign-in-routes';

export const authEndpoints = endpointGroup('Sign-in', {
  login: {
    ...signInRoutes.login,
    summary:
      'Sign in with e-mail and password: the bearer token every other call sends, or, with two-factor on, a challenge for the second step.',
    access: 'public',
    body: loginRequestSchema,
    responses: { 200: loginResponseSchema, ...publicErrors('UNAUTHORIZED') },
  },
  loginTwoFactor: {
    ...signInRoutes.loginTwoFactor,
    summary: "Sign-in's second step: the password step's challenge and a 6-digit code or a recovery code.",
    access: 'public',
    body: loginTwoFactorRequestSchema,
    responses: { 200: sessionTokenSchema, ...publicErrors('UNAUTHORIZED') },
  },
  me: {
    method: 'GET',
    path: '/api/me',
    summary: 'The signed-in person.',
    responses: { 200: currentUserSchema, ...signedInErrors() },
  },
  logout: {
    method: 'POST',
    path: '/api/auth/logout',
    summary: 'End this session: its token is refused from then on. Takes no body.',
    responses: { 204: noContentSchema, ...signedInErrors() },
  },
});
