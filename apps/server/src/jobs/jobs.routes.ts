import { jobEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../endpoint-route';
import type { JobsService } from './jobs.service';

/** The person's background operations under /api/jobs. */
export const jobsRoutes: FastifyPluginAsync<{ jobs: JobsService }> = async (app, { jobs }) => {
  route(app, jobEndpoints.list, async (request) => jobs.list(request.user, request.query.scope));

  noContentRoute(app, jobEndpoints.seen, (request) => jobs.seen(request.user.id));

  // Ownership is checked in the service: the job's own user (or an administrator, to read it).
  route(app, jobEndpoints.get, async (request) => jobs.get(request.user, request.params.id), {
    owns: ['id'],
  });

  route(app, jobEndpoints.cancel, async (request) => jobs.cancel(request.user, request.params.id), {
    owns: ['id'],
  });
};
