import { loginRequestSchema, loginResponseSchema } from '../auth';
import { currentUserSchema } from '../users';
import { endpointGroup, noContentSchema, publicErrors, signedInErrors } from './endpoint';

export const authEndpoints = endpointGroup('Sign-in', {
  login: {
    method: 'POST',
    path: '/api/login',
    summary: 'Sign in with e-mail and password: the bearer token every other call sends.',
    access: 'public',
    body: loginRequestSchema,
    responses: { 200: loginResponseSchema, ...publicErrors('UNAUTHORIZED') },
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
