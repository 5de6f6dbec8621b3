import {
  banEverywhereRequestSchema,
  ipSearchActionAnswerSchema,
  ipSearchAnswerSchema,
  ipSearchQuerySchema,
  removeMatchesRequestSchema,
} from './ip-search.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

export const ipSearchEndpoints = endpointGroup('IP search', {
  search: {
    method: 'GET',
    path: '/api/cloudflare/ip-search',
    summary:
      "Where an IP address, CIDR, hostname or AS number is listed across all of the person's lists (the local mirror): an address finds the items holding it exactly or in a CIDR; a CIDR finds the items inside it and the CIDRs holding it.",
    query: ipSearchQuerySchema,
    responses: { 200: ipSearchAnswerSchema, ...signedInErrors() },
    costly: true,
    // The server keeps answers as JSON (a search is often asked again, and 500 matches cost more to
    // check and serialise than to send).
    preSerialized: true,
  },
  ban: {
    method: 'POST',
    path: '/api/cloudflare/ip-search/ban',
    summary:
      "Ban everywhere: add one value with a comment to the chosen lists of the person's accounts, each account's part a job (200 when all ended within the wait, else 202; poll each job).",
    body: banEverywhereRequestSchema,
    responses: {
      200: ipSearchActionAnswerSchema,
      202: ipSearchActionAnswerSchema,
      ...signedInErrors('FORBIDDEN', 'NOT_FOUND'),
    },
  },
  remove: {
    method: 'POST',
    path: '/api/cloudflare/ip-search/remove',
    summary:
      "Removes the chosen matches of a search from their lists at Cloudflare and from the mirror, each account's part a job (200 when all ended within the wait, else 202; poll each job).",
    destructive: 'cloudflare',
    body: removeMatchesRequestSchema,
    responses: {
      200: ipSearchActionAnswerSchema,
      202: ipSearchActionAnswerSchema,
      ...signedInErrors('NOT_FOUND'),
    },
  },
});
