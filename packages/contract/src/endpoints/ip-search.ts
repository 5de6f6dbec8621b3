import { ipSearchAnswerSchema, ipSearchQuerySchema } from '../ip-search';
import { endpointGroup, signedInErrors } from './endpoint';

export const ipSearchEndpoints = endpointGroup('IP search', {
  search: {
    method: 'GET',
    path: '/api/cloudflare/ip-search',
    summary:
      "Where an IP address, CIDR, hostname or AS number is listed across all of the person's lists (the local mirror): an address finds the items holding it exactly or in a CIDR; a CIDR finds the items inside it and the CIDRs holding it.",
    query: ipSearchQuerySchema,
    responses: { 200: ipSearchAnswerSchema, ...signedInErrors() },
    costly: true,
  },
});
