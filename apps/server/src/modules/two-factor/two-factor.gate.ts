import {
  ADMIN_LEVEL,
  authEndpoints,
  TWO_FACTOR_SETUP_REQUIRED,
  twoFactorEndpoints,
} from '@guardian/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../app-error';
import { guardedAccess } from '../../route-table';
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
export const KEY_SETUP_REQUIRED_MESSAGE =
  'Your administrator requires two-factor sign-in: this API key works again once its person turns it on in their profile.';

/**
 * While an administrator requires two-factor sign-in of everyone, a signed-in person without it may
 * only turn it on (and sign out): every other route answers 403 with `errors[0].code`
 * `two_factor_setup_required`, and the web sends them to enrol. Their API keys are refused with a 403
 * of their own (a script cannot enrol, its person can), so a key is no way around the requirement.
 * Runs after the auth guard, before the body is read:
 * attached, as they are registered, to the guard's routes but enrolment's, and it waits only when the
 * service has no answer kept (the requirement, or whether the person has it on).
 */
export function registerTwoFactorGate(app: FastifyInstance, twoFactor: TwoFactorService): void {
  const refusalOf = (message: string) => () =>
    new AppError('FORBIDDEN', message, { errors: [{ code: TWO_FACTOR_SETUP_REQUIRED, message }] });
  const refusals = { session: refusalOf(SETUP_REQUIRED_MESSAGE), key: refusalOf(KEY_SETUP_REQUIRED_MESSAGE) };
  const gate = (adminEnrolment: boolean) =>
    function twoFactorGate(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
      const user = request.user as typeof request.user | undefined;
      if (!user) return done();
      const refusal = request.apiKey ? refusals.key : refusals.session;
      if (adminEnrolment && user.level === ADMIN_LEVEL) return done();
      const known = twoFactor.mustEnrolKnown(user.id);
      if (known !== undefined) return done(known ? refusal() : undefined);
      twoFactor.mustEnrol(user.id).then(
        (mustEnrol) => done(mustEnrol ? refusal() : undefined),
        (err: unknown) => done(err as Error),
      );
    };
  const gates = { any: gate(false), adminEnrolment: gate(true) };
  app.addHook('onRoute', (route) => {
    if (!guardedAccess(route)) return;
    // By "METHOD /path": a GET's HEAD route is registered on its own, as HEAD, and gated as today.
    const kinds = new Set(
      [route.method].flat().map((method) => {
        const name = `${method} ${route.url}`;
        return ENROLMENT_ROUTES.has(name) ? 'open' : ADMIN_ENROLMENT_ROUTES.has(name) ? 'admin' : 'gated';
      }),
    );
    if (kinds.size > 1)
      throw new Error(`${route.url}: register its enrolment methods as routes of their own.`);
    if (kinds.has('open')) return;
    route.preValidation = [
      ...[route.preValidation ?? []].flat(),
      kinds.has('admin') ? gates.adminEnrolment : gates.any,
    ];
  });
}
