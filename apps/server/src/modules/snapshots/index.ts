// The snapshots module's entry: the one file other modules and the composition root import (lint holds it).
export { type SnapshotDnsRecord, type SnapshotItem, type SnapshotList } from './snapshots.repository';
export { snapshotsRoutes } from './snapshots.routes';
export {
  SnapshotsService,
  type KeptListItems,
  type RestoringPerson,
  type SnapshotRestorers,
} from './snapshots.service';
