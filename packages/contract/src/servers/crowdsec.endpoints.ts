import { z } from 'zod';
import { jobSchema } from '../jobs/jobs.schemas';
import { endpointGroup, noContentSchema, signedInErrors } from '../shared/endpoint';
import {
  crowdsecPullResultSchema,
  crowdsecSourceRequestSchema,
  crowdsecSourceSchema,
} from './crowdsec.schemas';
import { serverParamsSchema } from './servers.schemas';

/** CrowdSec as a bouncer: a CrowdSec server's Local API, its bouncer key and its pulls (their person's). */
export const crowdsecEndpoints = endpointGroup('CrowdSec', {
  list: {
    method: 'GET',
    path: '/api/servers/crowdsec',
    summary: "The person's CrowdSec servers, their Local API, last pull, decisions mirrored and errors.",
    responses: { 200: z.array(crowdsecSourceSchema), ...signedInErrors('FORBIDDEN') },
  },
  connect: {
    method: 'PUT',
    path: '/api/servers/:server_id/crowdsec',
    summary:
      'Connects a CrowdSec server to its Local API with a bouncer key: Guardian pulls its decisions stream from now on.',
    params: serverParamsSchema,
    body: crowdsecSourceRequestSchema,
    responses: { 200: crowdsecSourceSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  pull: {
    method: 'POST',
    path: '/api/servers/:server_id/crowdsec/pull',
    summary: "Pulls the Local API's decisions now (202 with the job when it takes longer than the wait).",
    params: serverParamsSchema,
    responses: {
      200: crowdsecPullResultSchema,
      202: jobSchema,
      ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'UPSTREAM'),
    },
  },
  disconnect: {
    method: 'DELETE',
    path: '/api/servers/:server_id/crowdsec',
    summary:
      'Stops pulling the Local API and forgets the bouncer key (bans already mirrored stay until they expire).',
    destructive: 'guardian',
    params: serverParamsSchema,
    responses: { 204: noContentSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
});
