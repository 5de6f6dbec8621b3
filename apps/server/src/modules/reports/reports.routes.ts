import { reportEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { PlanLimits } from '../plans';
import type { ReportsService } from './reports.service';

/** The security, traffic and errors reports are sent as the JSON they were serialised to once. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The Reports pages, Dashboard > Performance and the overview's tiles: the person's own zones only,
 * and Guardian's own trail, jobs and budgets (reports.service.ts).
 */
export const reportsRoutes: FastifyPluginAsync<{ reports: ReportsService; limits: PlanLimits }> = async (
  app,
  { reports, limits },
) => {
  // A range wider than the person's plan allows is refused (403) before Cloudflare is asked.
  route(app, reportEndpoints.security, async (request, reply) => {
    await limits.refuseRange(request.user.id, request.query.range);
    return reply.type(JSON_TYPE).send(await reports.security(request.user.id, request.query));
  });
  route(app, reportEndpoints.traffic, async (request, reply) => {
    await limits.refuseRange(request.user.id, request.query.range);
    return reply.type(JSON_TYPE).send(await reports.traffic(request.user.id, request.query));
  });
  route(app, reportEndpoints.errors, async (request, reply) => {
    await limits.refuseRange(request.user.id, request.query.range);
    return reply.type(JSON_TYPE).send(await reports.errors(request.user.id, request.query));
  });
  route(app, reportEndpoints.overview, async (request) => reports.overview(request.user.id));
  route(app, reportEndpoints.activity, async (request) => {
    await limits.refuseRange(request.user.id, request.query.range);
    return reports.activity(request.user, request.query);
  });
  route(app, reportEndpoints.performance, async (request) => {
    await limits.refuseRange(request.user.id, request.query.range);
    return reports.performance(request.user.id, request.query);
  });
};
