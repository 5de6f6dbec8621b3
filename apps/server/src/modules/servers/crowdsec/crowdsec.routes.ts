import { crowdsecEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../../../endpoint-route';
import { answerOrJob } from '../../../jobs/job-answer';
import type { CrowdsecBouncer } from './crowdsec.service';

/** CrowdSec servers' Local APIs (/api/servers/crowdsec, /api/servers/:server_id/crowdsec...), their person's. */
export const crowdsecRoutes: FastifyPluginAsync<{ crowdsec: CrowdsecBouncer }> = async (
  app,
  { crowdsec },
) => {
  route(app, crowdsecEndpoints.list, async (request) => crowdsec.sources(request.user.id));
  route(
    app,
    crowdsecEndpoints.connect,
    async (request) => crowdsec.connect(request.user.id, request.params.server_id, request.body),
    { owns: ['server_id'] },
  );
  route(
    app,
    crowdsecEndpoints.pull,
    async (request, reply) =>
      answerOrJob(reply, await crowdsec.pullNow(request.user.id, request.params.server_id)),
    { owns: ['server_id'] },
  );
  noContentRoute(
    app,
    crowdsecEndpoints.disconnect,
    (request) => crowdsec.disconnect(request.user.id, request.params.server_id),
    { owns: ['server_id'] },
  );
};
