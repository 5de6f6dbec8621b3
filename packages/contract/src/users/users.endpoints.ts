import { z } from 'zod';
import { sessionTokenSchema } from '../auth/auth.schemas';
import {
  changePasswordRequestSchema,
  createUserRequestSchema,
  otherSessionsEndedSchema,
  ownSessionParamsSchema,
  ownSessionSchema,
  passwordLinkCheckRequestSchema,
  passwordLinkStatusSchema,
  passwordLinkUseRequestSchema,
  passwordSetupResultSchema,
  resetPasswordRequestSchema,
  setUserLevelRequestSchema,
  setUserPlanRequestSchema,
  userParamsSchema,
  userSchema,
  usersPageSchema,
  usersQuerySchema,
} from './users.schemas';
import { endpointGroup, noContentSchema, publicErrors, signedInErrors } from '../shared/endpoint';

/** Administrators manage people; the last active administrator can never be disabled, demoted or deleted. */
export const userEndpoints = endpointGroup('Users', {
  list: {
    method: 'GET',
    path: '/api/admin/users',
    summary: 'A page of users, searched by e-mail (administrators only).',
    access: 'admin',
    query: usersQuerySchema,
    responses: { 200: usersPageSchema, ...signedInErrors('FORBIDDEN') },
  },
  create: {
    method: 'POST',
    path: '/api/admin/users',
    summary:
      'Create a user with a first password or a one-time set-password link, answered once (administrators only).',
    access: 'admin',
    body: createUserRequestSchema,
    responses: { 201: passwordSetupResultSchema, ...signedInErrors('FORBIDDEN', 'CONFLICT') },
  },
  setPlan: {
    method: 'PUT',
    path: '/api/admin/users/:id/plan',
    summary:
      'Give a person a plan: what they already have stays, their next additions meet its limits (administrators only).',
    access: 'admin',
    params: userParamsSchema,
    body: setUserPlanRequestSchema,
    responses: { 200: userSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  setLevel: {
    method: 'PUT',
    path: '/api/admin/users/:id/level',
    summary: "Change a user's level; a change ends their sessions (administrators only).",
    access: 'admin',
    params: userParamsSchema,
    body: setUserLevelRequestSchema,
    responses: { 200: userSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  disable: {
    method: 'POST',
    path: '/api/admin/users/:id/disable',
    summary: 'Stop a user from signing in and end their sessions (administrators only).',
    access: 'admin',
    params: userParamsSchema,
    responses: { 200: userSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  enable: {
    method: 'POST',
    path: '/api/admin/users/:id/enable',
    summary: 'Let a disabled user sign in again (administrators only).',
    access: 'admin',
    params: userParamsSchema,
    responses: { 200: userSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  resetPassword: {
    method: 'POST',
    path: '/api/admin/users/:id/password',
    summary:
      "Replace a user's password with a new one or a one-time set-password link; their sessions end (administrators only).",
    access: 'admin',
    params: userParamsSchema,
    body: resetPasswordRequestSchema,
    responses: { 200: passwordSetupResultSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/users/:id',
    summary:
      'Deletes a user and everything of theirs in Guardian; nothing is deleted at Cloudflare (administrators only).',
    destructive: 'guardian',
    access: 'admin',
    params: userParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
});

/** A set-password link, used by whoever holds it (no session: they have no password yet). */
export const passwordLinkEndpoints = endpointGroup('Set-password links', {
  check: {
    method: 'POST',
    path: '/api/password-links/check',
    summary: 'Whether a set-password link can still be used, and for which e-mail.',
    access: 'public',
    body: passwordLinkCheckRequestSchema,
    responses: { 200: passwordLinkStatusSchema, ...publicErrors('NOT_FOUND', 'CONFLICT') },
  },
  use: {
    method: 'POST',
    path: '/api/password-links/use',
    summary: 'Set the password with a set-password link; the link is used up and earlier sessions end.',
    access: 'public',
    body: passwordLinkUseRequestSchema,
    responses: { 204: noContentSchema, ...publicErrors('NOT_FOUND', 'CONFLICT') },
  },
});

/** What every signed-in person manages about their own sign-in (the profile page). */
export const ownAccountEndpoints = endpointGroup('Profile', {
  changePassword: {
    method: 'POST',
    path: '/api/me/password',
    summary:
      'Change your password with the current one: every session ends, and the answer is a new one for this browser.',
    body: changePasswordRequestSchema,
    responses: { 200: sessionTokenSchema, ...signedInErrors('FORBIDDEN') },
  },
  sessions: {
    method: 'GET',
    path: '/api/me/sessions',
    summary: 'Your open sessions, newest first; `current` is the one this request was made with.',
    responses: { 200: z.array(ownSessionSchema), ...signedInErrors('FORBIDDEN') },
  },
  endOtherSessions: {
    method: 'DELETE',
    path: '/api/me/sessions',
    summary:
      'Ends every session of yours but the one this request was made with: sign out all other sessions (API keys are not sessions: they stay).',
    destructive: 'guardian',
    responses: { 200: otherSessionsEndedSchema, ...signedInErrors('FORBIDDEN') },
  },
  endSession: {
    method: 'DELETE',
    path: '/api/me/sessions/:id',
    summary: 'Ends one of your sessions (this one too: that is signing out).',
    destructive: 'guardian',
    params: ownSessionParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
});
