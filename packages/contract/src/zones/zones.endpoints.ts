import { z } from 'zod';
import {
  addZoneRequestSchema,
  addZoneResponseSchema,
  syncZonesResponseSchema,
  zoneParamsSchema,
  zoneSchema,
  zonesPageQuerySchema,
  zonesPageSchema,
} from './zones.schemas';
import { jobSchema } from '../jobs/jobs.schemas';
import { cloudflareErrors, endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';

export const zoneEndpoints = endpointGroup('Zones', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/zones',
    summary: "Every zone of the person's accounts, from the local mirror (the screens that need them all).",
    responses: { 200: z.array(zoneSchema), ...signedInErrors() },
    preSerialized: true,
  },
  // The zones screen's read: a path of its own rather than a query on `list`, whose answer is the whole array.
  page: {
    method: 'GET',
    path: '/api/cloudflare/zones/page',
    summary: "One page of the person's zones from the local mirror, searched and sorted.",
    query: zonesPageQuerySchema,
    responses: { 200: zonesPageSchema, ...signedInErrors() },
    preSerialized: true,
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/zones',
    summary: 'Add a domain to one of the accounts at Cloudflare.',
    body: addZoneRequestSchema,
    responses: { 201: addZoneResponseSchema, ...cloudflareErrors() },
  },
  sync: {
    method: 'POST',
    path: '/api/cloudflare/zones/sync',
    summary: "Read every account's zones from Cloudflare into the mirror.",
    // A long sync answers 202 with its job (apps/server/src/jobs/): poll it until it ends.
    responses: { 200: syncZonesResponseSchema, 202: jobSchema, ...cloudflareErrors() },
    costly: true,
  },
  remove: {
    method: 'DELETE',
    path: '/api/cloudflare/zones/:zone_id',
    summary:
      'Deletes a zone at Cloudflare, with its DNS records and rules there, and from the mirror; it cannot be restored.',
    destructive: 'cloudflare',
    params: zoneParamsSchema,
    responses: { 204: noContentSchema, ...cloudflareErrors() },
  },
});
