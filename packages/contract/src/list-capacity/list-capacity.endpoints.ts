import {
  capacityAccountParamsSchema,
  capacityAnswerSchema,
  accountCapacitySchema,
  setListPlanRequestSchema,
} from './list-capacity.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

export const listCapacityEndpoints = endpointGroup('List capacity', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/capacity',
    summary:
      "Each of the person's Cloudflare accounts' Lists quotas: lists and items used (the mirror) of the plan's limits, and where the plan came from (plan_source: setting, inferred, zones, assumed).",
    responses: { 200: capacityAnswerSchema, ...signedInErrors() },
  },
  setPlan: {
    method: 'PUT',
    path: '/api/cloudflare/capacity/:account_id/plan',
    summary:
      "The account's Cloudflare plan for its Lists quotas, set by the person (audited); null goes back to what Cloudflare says (the highest plan among the account's zones, as zones sync and zone add read them) or Guardian infers.",
    params: capacityAccountParamsSchema,
    body: setListPlanRequestSchema,
    responses: { 200: accountCapacitySchema, ...signedInErrors('NOT_FOUND') },
  },
});
