import { z } from 'zod';
import {
  addBanListRequestSchema,
  banListIdParamsSchema,
  banListSchema,
  setBanListPurposeRequestSchema,
} from './ban-lists.schemas';
import { jobSchema } from '../jobs/jobs.schemas';
import { cloudflareErrors, endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';

export const banListEndpoints = endpointGroup('Ban lists', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/banlists',
    summary: "The ban lists of the person's accounts, from the local mirror.",
    responses: { 200: z.array(banListSchema), ...signedInErrors() },
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/banlists',
    summary: 'Create a list at Cloudflare in one of the accounts.',
    body: addBanListRequestSchema,
    responses: { 201: banListSchema, ...cloudflareErrors() },
  },
  update: {
    method: 'POST',
    path: '/api/cloudflare/banlists/update',
    summary:
      "Read every account's lists from Cloudflare again: new lists are recorded, and a list Cloudflare no longer has is dropped from the mirror with its items (nothing is changed at Cloudflare).",
    // A long update answers 202 with its job (apps/server/src/jobs/): poll it until it ends.
    responses: { 200: z.array(banListSchema), 202: jobSchema, ...cloudflareErrors() },
    costly: true,
  },
  clean: {
    method: 'POST',
    path: '/api/cloudflare/banlists/clean',
    summary:
      "Empties every ban list of the person's accounts at Cloudflare: every item of every list is deleted there and from the mirror (the lists stay, empty). A snapshot of each list keeps its items, to restore for a while.",
    destructive: 'cloudflare',
    // A long Clean All answers 202 with its job: poll it until it ends.
    responses: { 200: z.array(banListSchema), 202: jobSchema, ...cloudflareErrors() },
  },
  setPurpose: {
    method: 'PUT',
    path: '/api/cloudflare/banlists/:id/purpose',
    summary:
      'Sets what a list is for (block or allow), in Guardian only; null goes back to the purpose its name suggests. Ban everywhere preselects blocklists and asks before banning into an allowlist.',
    params: banListIdParamsSchema,
    body: setBanListPurposeRequestSchema,
    responses: { 200: banListSchema, ...signedInErrors('NOT_FOUND') },
  },
  remove: {
    method: 'DELETE',
    path: '/api/cloudflare/banlists/:id',
    summary:
      'Deletes a list with all its items at Cloudflare and from the mirror; a snapshot keeps them, to restore for a while.',
    destructive: 'cloudflare',
    params: banListIdParamsSchema,
    responses: { 204: noContentSchema, ...cloudflareErrors() },
  },
});
