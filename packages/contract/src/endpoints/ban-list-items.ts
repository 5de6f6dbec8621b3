import {
  addBanListItemRequestSchema,
  banListItemParamsSchema,
  banListItemSchema,
  banListItemsPageSchema,
  banListItemsQuerySchema,
  banListParamsSchema,
  banListSchema,
} from '../banlists';
import { cloudflareErrors, endpointGroup, noContentSchema, signedInErrors } from './endpoint';

export const banListItemEndpoints = endpointGroup('Ban list items', {
  page: {
    method: 'GET',
    path: '/api/cloudflare/banlists/:list_id/items',
    summary: "One page of a list's items from the local mirror, searched and sorted.",
    params: banListParamsSchema,
    query: banListItemsQuerySchema,
    responses: { 200: banListItemsPageSchema, ...signedInErrors('NOT_FOUND') },
    preSerialized: true,
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/banlists/:list_id/items',
    summary: 'Add an item to a list at Cloudflare (its value checked against the list kind).',
    params: banListParamsSchema,
    body: addBanListItemRequestSchema,
    responses: { 201: banListItemSchema, ...cloudflareErrors() },
  },
  remove: {
    method: 'DELETE',
    path: '/api/cloudflare/banlists/:list_id/items/:item_id',
    summary: 'Remove an item from a list at Cloudflare.',
    params: banListItemParamsSchema,
    responses: { 204: noContentSchema, ...cloudflareErrors() },
  },
  sync: {
    method: 'POST',
    path: '/api/cloudflare/banlists/:list_id/sync',
    summary: "Read a list's items from Cloudflare into the mirror.",
    params: banListParamsSchema,
    responses: { 200: banListSchema, ...cloudflareErrors() },
  },
});
