import { z } from 'zod';
import {
  addPageRuleRequestSchema,
  pageRuleParamsSchema,
  pageRuleSchema,
  updatePageRuleRequestSchema,
} from './page-rules.schemas';
import { zoneParamsSchema } from '../zones/zones.schemas';
import { cloudflareErrors, endpointGroup, noContentSchema } from '../shared/endpoint';

export const pageRuleEndpoints = endpointGroup('Page rules', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/zones/:zone_id/pagerules',
    summary: "A zone's page rules, read live from Cloudflare.",
    params: zoneParamsSchema,
    responses: { 200: z.array(pageRuleSchema), ...cloudflareErrors() },
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/zones/:zone_id/pagerules',
    summary: 'Create a page rule at Cloudflare (priority 1 and active unless the body says otherwise).',
    params: zoneParamsSchema,
    body: addPageRuleRequestSchema,
    responses: { 201: pageRuleSchema, ...cloudflareErrors() },
  },
  update: {
    method: 'PUT',
    path: '/api/cloudflare/zones/:zone_id/pagerules/:pagerule_id',
    summary: 'Replace a page rule (its priority and status included).',
    params: pageRuleParamsSchema,
    body: updatePageRuleRequestSchema,
    responses: { 200: pageRuleSchema, ...cloudflareErrors() },
  },
  remove: {
    method: 'DELETE',
    path: '/api/cloudflare/zones/:zone_id/pagerules/:pagerule_id',
    summary: 'Deletes a page rule at Cloudflare.',
    destructive: 'cloudflare',
    params: pageRuleParamsSchema,
    responses: { 204: noContentSchema, ...cloudflareErrors() },
  },
});
