import { z } from 'zod';
import { banListExportQuerySchema } from './ban-list-items-export.schemas';
import { errorBodySchema } from '../shared/errors';
import { jobSchema } from '../jobs/jobs.schemas';
import {
  banListImportApplyRequestSchema,
  banListImportParamsSchema,
  banListImportPreviewRequestSchema,
  banListImportPreviewSchema,
  banListImportResultSchema,
} from './ban-list-items-import.schemas';
import {
  addBanListItemRequestSchema,
  banListItemHistorySchema,
  banListItemParamsSchema,
  banListItemSchema,
  banListItemsCountQuerySchema,
  banListItemsCountSchema,
  banListItemsPageSchema,
  banListItemsQuerySchema,
  banListParamsSchema,
  changeBanListItemExpiryRequestSchema,
} from './ban-list-items.schemas';
import { banListSchema } from '../ban-lists/ban-lists.schemas';
import { cloudflareErrors, endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';

export const banListItemEndpoints = endpointGroup('Ban list items', {
  page: {
    method: 'GET',
    path: '/api/cloudflare/banlists/:list_id/items',
    summary: "One page of a list's items from the local mirror, searched and sorted.",
    params: banListParamsSchema,
    query: banListItemsQuerySchema,
    responses: { 200: banListItemsPageSchema, ...signedInErrors('NOT_FOUND') },
    preSerialized: true,
    costly: true,
  },
  count: {
    method: 'GET',
    path: '/api/cloudflare/banlists/:list_id/items/count',
    summary:
      'The exact number of items a search matches, counted once per version of the list (after a page whose count stopped short).',
    params: banListParamsSchema,
    query: banListItemsCountQuerySchema,
    responses: { 200: banListItemsCountSchema, ...signedInErrors('NOT_FOUND') },
    costly: true,
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
    summary: 'Removes an item from a list at Cloudflare and from the mirror.',
    destructive: 'cloudflare',
    params: banListItemParamsSchema,
    responses: { 204: noContentSchema, ...cloudflareErrors() },
  },
  history: {
    method: 'GET',
    path: '/api/cloudflare/banlists/:list_id/items/:item_id/history',
    summary:
      "An item's history, its value's in the list: who added it and how, its expiry changes, its removals (by a person or by its expiry), earlier times it was listed included.",
    params: banListItemParamsSchema,
    responses: { 200: banListItemHistorySchema, ...signedInErrors('NOT_FOUND') },
  },
  changeExpiry: {
    method: 'PUT',
    path: '/api/cloudflare/banlists/:list_id/items/:item_id/expiry',
    summary:
      "Change an item's expiry (Never, 1h, 1d, 7d, 30d from now, or a date): Guardian removes it at Cloudflare then.",
    params: banListItemParamsSchema,
    body: changeBanListItemExpiryRequestSchema,
    responses: { 200: banListItemSchema, ...signedInErrors('NOT_FOUND', 'BAD_REQUEST') },
  },
  export: {
    method: 'GET',
    path: '/api/cloudflare/banlists/:list_id/items/export',
    summary:
      "A list's items, or a search's matches, as CSV (value,comment,expires,added_by,added_at, which Import reads back) or TXT (one value a line), streamed from the local mirror.",
    params: banListParamsSchema,
    query: banListExportQuerySchema,
    responses: { 200: z.string().describe('text/csv or text/plain'), ...signedInErrors('NOT_FOUND') },
    preSerialized: true,
    costly: true,
  },
  importPreview: {
    method: 'POST',
    path: '/api/cloudflare/banlists/:list_id/items/import/preview',
    summary:
      "Read an import (one value a line, a `# comment` after it; or CSV read by its header's names value, comment, expires, added_by, added_at as Export writes them, or without a header value,comment,expires) and answer what it would add, what the list already has, what repeats and every invalid line. Nothing is sent to Cloudflare.",
    params: banListParamsSchema,
    body: banListImportPreviewRequestSchema,
    responses: { 200: banListImportPreviewSchema, ...signedInErrors('NOT_FOUND'), 413: errorBodySchema },
    costly: true,
    changesNothing: true,
  },
  importApply: {
    method: 'POST',
    path: '/api/cloudflare/banlists/:list_id/items/import/:import_id',
    summary:
      "Apply a previewed import: only its new items are sent to Cloudflare, as a job (refused before anything is sent when it would pass the account's quota).",
    params: banListImportParamsSchema,
    body: banListImportApplyRequestSchema,
    // A long import answers 202 with its job (apps/server/src/jobs/): poll it until it ends.
    responses: { 200: banListImportResultSchema, 202: jobSchema, ...cloudflareErrors() },
    costly: true,
  },
  sync: {
    method: 'POST',
    path: '/api/cloudflare/banlists/:list_id/sync',
    summary: "Read a list's items from Cloudflare into the mirror.",
    params: banListParamsSchema,
    // A long sync answers 202 with its job (apps/server/src/jobs/): poll it until it ends.
    responses: { 200: banListSchema, 202: jobSchema, ...cloudflareErrors() },
    costly: true,
  },
});
