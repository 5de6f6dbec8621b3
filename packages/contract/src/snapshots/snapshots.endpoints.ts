import { z } from 'zod';
import {
  snapshotParamsSchema,
  snapshotPolicySchema,
  snapshotSchema,
  snapshotsQuerySchema,
} from './snapshots.schemas';
import { cloudflareErrors, endpointGroup, signedInErrors } from '../shared/endpoint';

export const snapshotEndpoints = endpointGroup('Snapshots', {
  list: {
    method: 'GET',
    path: '/api/snapshots',
    summary:
      'What Clean All, deleting a list and deleting a DNS record kept, newest first, while it can be restored.',
    query: snapshotsQuerySchema,
    responses: { 200: z.array(snapshotSchema), ...signedInErrors() },
  },
  policy: {
    method: 'GET',
    path: '/api/snapshots/policy',
    summary:
      'How long a snapshot can be restored after the action that took it, and how many a person keeps: what the confirms of Clean All and the deletes tell.',
    responses: { 200: snapshotPolicySchema, ...signedInErrors() },
  },
  restore: {
    method: 'POST',
    path: '/api/snapshots/:id/restore',
    summary:
      "Put back at Cloudflare what a snapshot kept (items added again, a list or a record created again), then refresh the mirror; the items get back their comment, date, who added them, their expiry and history, with a 'restored' event. Items whose expiry passed meanwhile stay removed (the guardian-outcome header says how many).",
    params: snapshotParamsSchema,
    // Up to a whole list's items written back at Cloudflare: a person's run a few at a time.
    costly: true,
    responses: { 200: snapshotSchema, ...cloudflareErrors() },
  },
});
