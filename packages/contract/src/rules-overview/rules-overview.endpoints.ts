import { rulesOverviewQuerySchema, rulesOverviewResponseSchema } from './rules-overview.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

export const rulesOverviewEndpoints = endpointGroup('Rules overview', {
  get: {
    method: 'GET',
    path: '/api/cloudflare/rules-overview',
    summary:
      "Firewall and page rule counts of up to 25 of the person's zones, read live from Cloudflare, with the rules matching a search; a zone that fails carries its error.",
    query: rulesOverviewQuerySchema,
    responses: { 200: rulesOverviewResponseSchema, ...signedInErrors() },
    costly: true,
  },
});
