// The rules-overview module's entry: the one file other modules and the composition root import (lint holds it).
export { rulesOverviewRoutes } from './rules-overview.routes';
export { RulesOverviewService } from './rules-overview.service';
export { mapWithConcurrency } from './concurrency';
