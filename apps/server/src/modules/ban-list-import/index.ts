// The ban-list-import module's entry: the one file other modules and the composition root import (lint holds it).
export { listImportRoutes } from './list-import.routes';
export { ListImportService } from './list-import.service';
export type { StoredImportItem } from './list-import.repository';
