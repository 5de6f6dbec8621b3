import { authEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../../endpoint-route';
import { AppError } from '../../app-error';
import { bearerToken } from './auth.guard';
import type { AuthService } from './auth.service';
import { sessionDeviceOf } from './sessions';

export const authRoutes: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  route(app, authEndpoints.login, async (request) => auth.login(request.body, sessionDeviceOf(request)));

  route(app, authEndpoints.loginTwoFactor, async (request) => {
    const person = await auth.challengedUser(request.body.challenge_token);
    // Known from here: the audit trail records the attempt, right or wrong, as this person's.
    request.user = { id: person.id, email: person.email, level: person.level };
    return auth.loginTwoFactor(person, request.body.code, sessionDeviceOf(request));
  });

  route(app, authEndpoints.me, async (request) => request.user);

  // Ends the session on the server: its token is refused from now on (the guard checked it is open).
  noContentRoute(app, authEndpoints.logout, async (request) => {
    if (request.body !== undefined) throw new AppError('BAD_REQUEST', 'Signing out takes no request body.');
    await app.sessions.end(bearerToken(request));
  });
};
