import { z } from 'zod';
import {
  accountIdParamsSchema,
  addAccountRequestSchema,
  cloudflareAccountSchema,
  updateAccountRequestSchema,
} from './accounts.schemas';
import { cloudflareErrors, endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';

export const accountEndpoints = endpointGroup('Accounts', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/accounts',
    summary: "The person's Cloudflare accounts, tokens masked, with each token's state when last checked.",
    responses: { 200: z.array(cloudflareAccountSchema), ...signedInErrors() },
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/accounts',
    summary:
      "Add a Cloudflare account by its API token (checked with Cloudflare first); the account's lists are recorded and each list's items synced by a job of its own.",
    body: addAccountRequestSchema,
    responses: { 201: cloudflareAccountSchema, ...cloudflareErrors() },
  },
  update: {
    method: 'PUT',
    path: '/api/cloudflare/accounts/:id',
    summary:
      'Rename an account, or replace its API token (the new one verified at Cloudflare for the same account before it is stored).',
    params: accountIdParamsSchema,
    body: updateAccountRequestSchema,
    responses: { 200: cloudflareAccountSchema, ...cloudflareErrors() },
  },
  remove: {
    method: 'DELETE',
    path: '/api/cloudflare/accounts/:id',
    summary:
      'Removes an account from Guardian with its lists, items mirror, zones and snapshots; nothing is deleted at Cloudflare. Refused (409) while a job works on it.',
    destructive: 'guardian',
    params: accountIdParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('NOT_FOUND', 'CONFLICT') },
  },
});
