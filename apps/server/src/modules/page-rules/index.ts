// The page-rules module's entry: the one file other modules and the composition root import (lint holds it).
export { pageRulesRoutes } from './page-rules.routes';
export { PageRulesService } from './page-rules.service';
