import {
  recoveryCodesSchema,
  twoFactorConfirmRequestSchema,
  twoFactorEnableRequestSchema,
  twoFactorPolicySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  twoFactorUserParamsSchema,
} from './two-factor.schemas';
import { endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';

export const twoFactorEndpoints = endpointGroup('Two-factor sign-in', {
  status: {
    method: 'GET',
    path: '/api/me/two-factor',
    summary:
      'Whether two-factor sign-in is on for the person, their unused recovery codes, and whether it is required.',
    responses: { 200: twoFactorStatusSchema, ...signedInErrors('FORBIDDEN') },
  },
  setup: {
    method: 'POST',
    path: '/api/me/two-factor/setup',
    summary:
      'Start turning two-factor on: a new secret for an authenticator app (not on until confirmed with a code).',
    responses: { 200: twoFactorSetupSchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  enable: {
    method: 'POST',
    path: '/api/me/two-factor/enable',
    summary:
      'Turn two-factor on with the first code of the new secret; answers the ten recovery codes, once.',
    body: twoFactorEnableRequestSchema,
    responses: { 200: recoveryCodesSchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  disable: {
    method: 'POST',
    path: '/api/me/two-factor/disable',
    summary: 'Turn two-factor off, confirmed with the password or a code.',
    body: twoFactorConfirmRequestSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  regenerateRecoveryCodes: {
    method: 'POST',
    path: '/api/me/two-factor/recovery-codes',
    summary: 'Replace the recovery codes (the old ones stop working), confirmed with the password or a code.',
    body: twoFactorConfirmRequestSchema,
    responses: { 200: recoveryCodesSchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  policy: {
    method: 'GET',
    path: '/api/admin/two-factor/required',
    summary: 'Whether two-factor sign-in is required of everyone (administrators only).',
    access: 'admin',
    responses: { 200: twoFactorPolicySchema, ...signedInErrors('FORBIDDEN') },
  },
  require: {
    method: 'PUT',
    path: '/api/admin/two-factor/required',
    summary:
      'Require two-factor sign-in of everyone: a person without it may only turn it on (administrators only).',
    access: 'admin',
    responses: { 200: twoFactorPolicySchema, ...signedInErrors('FORBIDDEN') },
  },
  unrequire: {
    method: 'DELETE',
    path: '/api/admin/two-factor/required',
    summary: 'Stops requiring two-factor sign-in of everyone (administrators only).',
    destructive: 'guardian',
    access: 'admin',
    responses: { 200: twoFactorPolicySchema, ...signedInErrors('FORBIDDEN') },
  },
  reset: {
    method: 'DELETE',
    path: '/api/admin/users/:id/two-factor',
    summary:
      "Turns off a person's two-factor sign-in (lost phone) and ends their sessions (administrators only).",
    destructive: 'guardian',
    access: 'admin',
    params: twoFactorUserParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
});
