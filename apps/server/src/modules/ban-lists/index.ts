// The ban-lists module's entry: the one file other modules and the composition root import (lint holds it).
export { BanListsJobs } from './ban-lists-jobs';
export { banListsRoutes } from './ban-lists.routes';
export { BanListsService } from './ban-lists.service';
