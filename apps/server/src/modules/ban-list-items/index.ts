// The ban-list-items module's entry: the one file other modules and the composition root import (lint holds it).
export { BanListItemsService } from './ban-list-items.service';
export { deleteAtCloudflare } from './item-ids';
export { ListReconciler, OUTCOME_WAIT_JOB_MS, lostBecause, lostWriteEnd } from './write-outcome';
