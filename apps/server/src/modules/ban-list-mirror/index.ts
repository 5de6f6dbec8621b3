// The ban-list-mirror module's entry: the one file other modules and the composition root import (lint holds it).
export { AccountListWrites } from './account-list-writes';
export {
  BanListItemsRepository,
  EXPORT_PIECE_IDS,
  ensurePartition,
  type BanListItemRecord,
  type BucketOrder,
  type CommentMatch,
  type ItemFilter,
  type KeptItem,
  type ItemOrder,
  type MirrorItem,
  type RestoredItem,
} from './ban-list-items.repository';
export { ListWriter, type BanListParts, type ListWriterParts } from './ban-list-parts';
export { BanListSyncJobs, queueListSync } from './ban-list-sync-job';
export { BanListsRepository, type BanListRecord, type CloudflareListSummary } from './ban-lists.repository';
export { GUARDIAN_ACTOR, ItemHistoryRepository, type NewItemEvent } from './item-history';
export { ListCapacity, requireRoom } from './list-capacity';
export { CLOUDFLARE_ITEMS_PER_PAGE, listItemPages, type CloudflareItem } from './list-item-pages';
export {
  keyOfCloudflareItem,
  keyOfMirrorValue,
  mirrorKeySql,
  mirrorPrefixOf,
  parseItemValue,
  type ItemValue,
} from './list-item-value';
export { listPurpose } from './list-purpose';
export { ListTurns } from './list-turns';
export { syncMirror, toMirrorItem } from './mirror-sync';
export { OwnedLists, about, banListNotFound, toBanListDto } from './owned-lists';
export { isPendingItemId, newPendingItemId } from './pending-item-id';
