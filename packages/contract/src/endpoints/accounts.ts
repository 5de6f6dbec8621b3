import { z } from 'zod';
import { addAccountRequestSchema, cloudflareAccountSchema } from '../accounts';
import { cloudflareErrors, endpointGroup, signedInErrors } from './endpoint';

export const accountEndpoints = endpointGroup('Accounts', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/accounts',
    summary: "The person's Cloudflare accounts, tokens masked.",
    responses: { 200: z.array(cloudflareAccountSchema), ...signedInErrors() },
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/accounts',
    summary: 'Add a Cloudflare account by its API token (checked with Cloudflare first).',
    body: addAccountRequestSchema,
    responses: { 201: cloudflareAccountSchema, ...cloudflareErrors() },
  },
});
