import { z } from 'zod';
import { dnsRecordInputSchema, dnsRecordParamsSchema, dnsRecordSchema } from './dns-records.schemas';
import { zoneParamsSchema } from '../zones/zones.schemas';
import { cloudflareErrors, endpointGroup, noContentSchema } from '../shared/endpoint';

export const dnsRecordEndpoints = endpointGroup('DNS records', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/zones/:zone_id/dns',
    summary: "A zone's DNS records, read live from Cloudflare.",
    params: zoneParamsSchema,
    responses: { 200: z.array(dnsRecordSchema), ...cloudflareErrors() },
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/zones/:zone_id/dns',
    summary: 'Create a DNS record at Cloudflare.',
    params: zoneParamsSchema,
    body: dnsRecordInputSchema,
    responses: { 201: dnsRecordSchema, ...cloudflareErrors() },
  },
  update: {
    method: 'PUT',
    path: '/api/cloudflare/zones/:zone_id/dns/:record_id',
    summary: 'Replace a DNS record at Cloudflare.',
    params: dnsRecordParamsSchema,
    body: dnsRecordInputSchema,
    responses: { 200: dnsRecordSchema, ...cloudflareErrors() },
  },
  remove: {
    method: 'DELETE',
    path: '/api/cloudflare/zones/:zone_id/dns/:record_id',
    summary: 'Deletes a DNS record at Cloudflare; a snapshot keeps it, to restore for a while.',
    destructive: 'cloudflare',
    params: dnsRecordParamsSchema,
    responses: { 204: noContentSchema, ...cloudflareErrors() },
  },
});
