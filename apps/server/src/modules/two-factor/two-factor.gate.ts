import {
  ADMIN_LEVEL,
  authEndpoints,
  TWO_FACTOR_SETUP_REQUIRED,
  twoFactorEndpoints,
} from '@guardian/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../app-error';
import type { TwoFactorService } from './two-factor.service';

const key = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;

/** What a person kept to enrolment may call: who they are, signing out, and turning two-factor on. */
const ENROLMENT_ROUTES = new Set(
  [
    authEndpoints.me,
    authEndpoints.logout,
    twoFactorEndpoints.status,
    twoFactorEndpoints.setup,
    twoFactorEndpoints.enable,
  ].map(key),
);
/** An administrator may also see and lift the requirement they are held to (they set it). */
const ADMIN_ENROLMENT_ROUTES = new Set(
  [twoFactorEndpoints.policy, twoFactorEndpoints.require, twoFactorEndpoints.unrequire].map(key),
);

export const SETUP_REQUIRED_MESSAGE =
  'Your administrator requires two-factor sign-in. Turn it on in your profile to continue.';

/**
 * While an administrator requires two-factor sign-in of everyone, a signed-in person without it may
 * only turn it on (and sign out): every other route answers 403 with `errors[0].code`
 * `two_factor_setup_required`, and the web sends them to enrol. API keys are not held to it (a script
 * cannot enrol; the person who made the key could). Runs after the auth guard, before the body is read.
 */
export function registerTwoFactorGate(app: FastifyInstance, twoFactor: TwoFactorService): void {
  app.addHook('preValidation', async (request) => {
    const user = request.user as typeof request.user | undefined;
    if (!user || request.apiKey) return;
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (ENROLMENT_ROUTES.has(route)) return;
    if (user.level === ADMIN_LEVEL && ADMIN_ENROLMENT_ROUTES.has(route)) return;
    if (!(await twoFactor.mustEnrol(user.id))) return;
    throw new AppError('FORBIDDEN', SETUP_REQUIRED_MESSAGE, {
      errors: [{ code: TWO_FACTOR_SETUP_REQUIRED, message: SETUP_REQUIRED_MESSAGE }],
    });
  });
}
