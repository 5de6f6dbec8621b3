import { planEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../../endpoint-route';
import type { PlansService } from './plans.service';

export const plansRoutes: FastifyPluginAsync<{ plans: PlansService }> = async (app, { plans }) => {
  // Administrators (access: 'admin'; plans and users are nobody's own, so `owns` names the id checked).
  route(app, planEndpoints.list, async () => plans.list());
  route(app, planEndpoints.create, async (request) => plans.create(request.body));
  route(app, planEndpoints.update, async (request) => plans.update(request.params.id, request.body), {
    owns: ['id'],
  });
  route(
    app,
    planEndpoints.makeDefault,
    async (request) => {
      const plan = await plans.makeDefault(request.params.id);
      request.auditEffects = { name: plan.name };
      return plan;
    },
    { owns: ['id'] },
  );
  noContentRoute(
    app,
    planEndpoints.remove,
    async (request) => (request.auditEffects = { name: await plans.remove(request.params.id) }),
    { owns: ['id'] },
  );

  // Everyone: their own plan and use.
  route(app, planEndpoints.own, async (request) => plans.own(request.user.id));
};
