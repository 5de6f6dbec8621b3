// The ip-search module's entry: the one file other modules and the composition root import (lint holds it).
export { IpSearchActions } from './ip-search-actions';
export { ipSearchRoutes } from './ip-search.routes';
export { IpSearchService } from './ip-search.service';
