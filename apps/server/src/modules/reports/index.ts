// The reports module's entry: the one file other modules and the composition root import (lint holds it).
export { reportsRoutes } from './reports.routes';
export { ReportsService } from './reports.service';
