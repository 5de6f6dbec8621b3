import { z } from 'zod';
import {
  createdServerSchema,
  createServerRequestSchema,
  serverBanAnswerSchema,
  serverBanRequestSchema,
  serverGroupParamsSchema,
  serverGroupRequestSchema,
  serverGroupSchema,
  serverHeartbeatAnswerSchema,
  serverHeartbeatRequestSchema,
  serverHourlyQuerySchema,
  serverHourlySchema,
  serverParamsSchema,
  serverReviewDecidedSchema,
  serverReviewDecisionRequestSchema,
  serverReviewsSchema,
  serverSchema,
  serverSigningSecretSchema,
  serverWebhookParamsSchema,
  serverWebhookRequestSchema,
  serverUnbanRequestSchema,
  userServerParamsSchema,
} from './servers.schemas';
import { userParamsSchema } from '../users/users.schemas';
import { endpointGroup, noContentSchema, publicErrors, signedInErrors } from '../shared/endpoint';

/** Groups and servers, managed by their person (with a session or an API key's rules). */
export const serverEndpoints = endpointGroup('Servers', {
  groupList: {
    method: 'GET',
    path: '/api/servers/groups',
    summary: "The person's server groups and their policies.",
    responses: { 200: z.array(serverGroupSchema), ...signedInErrors('FORBIDDEN') },
  },
  groupCreate: {
    method: 'POST',
    path: '/api/servers/groups',
    summary: 'Creates a server group: the lists its bans go to and the rules they follow.',
    body: serverGroupRequestSchema,
    responses: { 201: serverGroupSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  groupUpdate: {
    method: 'PUT',
    path: '/api/servers/groups/:group_id',
    summary: "Changes a group's policy: its servers' next calls follow it.",
    params: serverGroupParamsSchema,
    body: serverGroupRequestSchema,
    responses: { 200: serverGroupSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  groupRemove: {
    method: 'DELETE',
    path: '/api/servers/groups/:group_id',
    summary: 'Deletes a server group that no server is in.',
    destructive: 'guardian',
    params: serverGroupParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  list: {
    method: 'GET',
    path: '/api/servers',
    summary: "The person's servers: integration, last seen, bans and refused calls, state.",
    responses: { 200: z.array(serverSchema), ...signedInErrors('FORBIDDEN') },
  },
  hourly: {
    method: 'GET',
    path: '/api/servers/hourly',
    summary: "What the person's servers sent in each of the last 24 hours: bans, unbans, refused calls.",
    query: serverHourlyQuerySchema,
    responses: { 200: serverHourlySchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  create: {
    method: 'POST',
    path: '/api/servers',
    summary: 'Registers a server in a group; the answer shows its key once.',
    body: createServerRequestSchema,
    responses: { 201: createdServerSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  revoke: {
    method: 'DELETE',
    path: '/api/servers/:server_id',
    summary: "Revokes a server's key: its calls are refused from now on (it stays listed, revoked).",
    destructive: 'guardian',
    params: serverParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  signingSecret: {
    method: 'POST',
    path: '/api/servers/:server_id/signing-secret',
    summary:
      'Makes the server a new signing secret for its signed webhook (the old one stops working); shown once.',
    params: serverParamsSchema,
    responses: { 200: serverSigningSecretSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  reviewList: {
    method: 'GET',
    path: '/api/servers/reviews',
    summary: "Bans of the person's servers waiting for review (groups with review on), oldest first.",
    responses: { 200: serverReviewsSchema, ...signedInErrors('FORBIDDEN') },
  },
  reviewApprove: {
    method: 'POST',
    path: '/api/servers/reviews/approve',
    summary: 'Approves waiting bans: each is queued for its lists like any ban of its server.',
    body: serverReviewDecisionRequestSchema,
    responses: { 200: serverReviewDecidedSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  reviewReject: {
    method: 'POST',
    path: '/api/servers/reviews/reject',
    summary: 'Rejects waiting bans: they never reach Cloudflare.',
    body: serverReviewDecisionRequestSchema,
    responses: { 200: serverReviewDecidedSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  userList: {
    method: 'GET',
    path: '/api/admin/users/:id/servers',
    summary: "A person's servers, to revoke (administrators only).",
    access: 'admin',
    params: userParamsSchema,
    responses: { 200: z.array(serverSchema), ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  userRevoke: {
    method: 'DELETE',
    path: '/api/admin/users/:id/servers/:server_id',
    summary: "Revokes a person's server key: its calls are refused from now on (administrators only).",
    destructive: 'guardian',
    access: 'admin',
    params: userServerParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
});

/**
 * What a server calls with its own key (`Authorization: Bearer gs_...`), and nothing else: a server
 * key reaches no other route, and these routes take no session or API key.
 */
export const serverApiEndpoints = endpointGroup('Server API', {
  ban: {
    method: 'POST',
    path: '/api/server-api/ban',
    summary:
      "Bans an address or CIDR in the server's group's lists, within its policy: 202 while it is pending.",
    access: 'server',
    body: serverBanRequestSchema,
    responses: { 202: serverBanAnswerSchema, ...publicErrors('UNAUTHORIZED', 'FORBIDDEN') },
  },
  unban: {
    method: 'POST',
    path: '/api/server-api/unban',
    summary: "Removes an address or CIDR from the server's group's lists: 202 while it is pending.",
    access: 'server',
    body: serverUnbanRequestSchema,
    responses: { 202: serverBanAnswerSchema, ...publicErrors('UNAUTHORIZED', 'FORBIDDEN') },
  },
  webhook: {
    method: 'POST',
    path: '/api/server-api/webhook/:server_id',
    summary:
      "A ban or unban signed with the server's signing secret (Standard Webhooks headers), within its policy: 202.",
    access: 'server',
    params: serverWebhookParamsSchema,
    body: serverWebhookRequestSchema,
    responses: {
      202: serverBanAnswerSchema,
      ...publicErrors('UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'),
    },
  },
  heartbeat: {
    method: 'POST',
    path: '/api/server-api/heartbeat',
    summary: 'Tells Guardian the server is alive (any call does), with its version.',
    access: 'server',
    // A sign of life, not a change: kept out of the audit trail (the server's last seen says it).
    changesNothing: true,
    body: serverHeartbeatRequestSchema,
    responses: { 200: serverHeartbeatAnswerSchema, ...publicErrors('UNAUTHORIZED') },
  },
});
