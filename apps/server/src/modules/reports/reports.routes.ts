import { reportEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { ReportsService } from './reports.service';

/**
 * The Reports pages, Dashboard > Performance and the overview's tiles: the person's own zones only,
 * and Guardian's own trail, jobs and budgets (reports.service.ts).
 */
export const reportsRoutes: FastifyPluginAsync<{ reports: ReportsService }> = async (app, { reports }) => {
  route(app, reportEndpoints.security, async (request) => reports.security(request.user.id, request.query));
  route(app, reportEndpoints.traffic, async (request) => reports.traffic(request.user.id, request.query));
  route(app, reportEndpoints.errors, async (request) => reports.errors(request.user.id, request.query));
  route(app, reportEndpoints.overview, async (request) => reports.overview(request.user.id));
  route(app, reportEndpoints.activity, async (request) => reports.activity(request.user, request.query));
  route(app, reportEndpoints.performance, async (request) =>
    reports.performance(request.user.id, request.query),
  );
};
