// The plans module's entry: the one file other modules and the composition root import (lint holds it).
export { PlanLimits, refuseBeyondPlan } from './plan-limits';
export { plansRoutes } from './plans.routes';
export { PlansService } from './plans.service';
