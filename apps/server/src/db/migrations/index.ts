import { sql as users } from './001_users';
import { sql as cloudflareAccounts } from './002_cloudflare_accounts';
import { sql as banLists } from './003_ban_lists';
import { sql as zones } from './004_zones';
import { sql as sessionsValidAfter } from './005_sessions_valid_after';
import { sql as sessions } from './006_sessions';
import { sql as leases } from './007_leases';
import { sql as snapshots } from './009_snapshots';
import { sql as audit } from './010_audit';
import { sql as twoFactor } from './011_two_factor';
import { sql as userAdmin } from './012_user_admin';
import { sql as apiKeys } from './013_api_keys';
import { sql as itemSortKey } from './014_item_sort_key';
import { sql as auditOrder } from './015_audit_order';
import { sql as jobs } from './016_jobs';
import { sql as itemContainment } from './017_item_containment';
import { sql as listWriteBudget } from './018_list_write_budget';
import { sql as itemProvenance } from './019_item_provenance';
import { sql as banListImports } from './020_ban_list_imports';
import { sql as accountListPlan } from './021_account_list_plan';
import { sql as requestBudgetBatches } from './022_request_budget_batches';
import { sql as ipSearchPlans } from './023_ip_search_plans';
import { sql as itemExpiryNextDue } from './024_item_expiry_next_due';
import { sql as itemContainmentCidrs } from './025_item_containment_cidrs';
import { sql as itemCommentOrder } from './026_item_comment_order';
import { sql as itemHistoryCascade } from './027_item_history_cascade';
import { sql as importListPosition } from './028_import_list_position';
import { sql as snapshotJob } from './029_snapshot_job';
import { sql as snapshotItemProvenance } from './030_snapshot_item_provenance';
import { sql as accountTokenState } from './032_account_token_state';
import { sql as auditWordsAndSessionDevices } from './033_audit_words_and_session_devices';
import { sql as banListPurpose } from './034_ban_list_purpose';
import { sql as zonePlan } from './035_zone_plan';
import { sql as banListRulePurpose } from './036_ban_list_rule_purpose';
import { sql as jobsQueue } from './037_jobs_queue';
import { sql as itemOrderBuckets } from './038_item_order_buckets';
import { sql as servers } from './040_servers';
import { sql as alerts } from './041_alerts';
import { sql as serverReviewWebhook } from './042_server_review_webhook';
import { sql as crowdsec } from './043_crowdsec';
import { sql as systemSettings } from './044_system_settings';
import { sql as plans } from './045_plans';
import { sql as tickets } from './046_tickets';
import { sql as notifications } from './047_notifications';
import { sql as notificationChannels } from './048_notification_channels';
import { sql as itemBucketsIdWalk } from './051_item_buckets_id_walk';
import { sql as itemBucketsBulkRebuild } from './052_item_buckets_bulk_rebuild';
import { sql as alertsPageIndexes } from './053_alerts_page_indexes';
import { sql as zonesUserOrder } from './054_zones_user_order';
import { sql as itemBucketsDeferred } from './055_item_buckets_deferred';
import { sql as zonesKeptPerPerson } from './056_zones_kept_per_person';
import { sql as itemHistoryByValue } from './057_item_history_by_value';
import { sql as itemCommentsLowerTrigrams } from './058_item_comments_lower_trigrams';
import { sql as zoneJsonOnRow } from './059_zone_json_on_row';

export interface Migration {
  /** Recorded in schema_migrations; never rename one that has shipped. */
  name: string;
  sql: string;
}

/** Every migration in the order it applies. Add a file `NNN_name.ts` exporting `sql` and list it here. */
export const migrations: readonly Migration[] = [
  { name: '001_users', sql: users },
  { name: '002_cloudflare_accounts', sql: cloudflareAccounts },
  { name: '003_ban_lists', sql: banLists },
  { name: '004_zones', sql: zones },
  { name: '005_sessions_valid_after', sql: sessionsValidAfter },
  { name: '006_sessions', sql: sessions },
  { name: '007_leases', sql: leases },
  { name: '009_snapshots', sql: snapshots },
  { name: '010_audit', sql: audit },
  { name: '011_two_factor', sql: twoFactor },
  { name: '012_user_admin', sql: userAdmin },
  { name: '013_api_keys', sql: apiKeys },
  { name: '014_item_sort_key', sql: itemSortKey },
  { name: '015_audit_order', sql: auditOrder },
  { name: '016_jobs', sql: jobs },
  { name: '017_item_containment', sql: itemContainment },
  { name: '018_list_write_budget', sql: listWriteBudget },
  { name: '019_item_provenance', sql: itemProvenance },
  { name: '020_ban_list_imports', sql: banListImports },
  { name: '021_account_list_plan', sql: accountListPlan },
  { name: '022_request_budget_batches', sql: requestBudgetBatches },
  { name: '023_ip_search_plans', sql: ipSearchPlans },
  { name: '024_item_expiry_next_due', sql: itemExpiryNextDue },
  { name: '025_item_containment_cidrs', sql: itemContainmentCidrs },
  { name: '026_item_comment_order', sql: itemCommentOrder },
  { name: '027_item_history_cascade', sql: itemHistoryCascade },
  { name: '028_import_list_position', sql: importListPosition },
  { name: '029_snapshot_job', sql: snapshotJob },
  { name: '030_snapshot_item_provenance', sql: snapshotItemProvenance },
  { name: '032_account_token_state', sql: accountTokenState },
  { name: '033_audit_words_and_session_devices', sql: auditWordsAndSessionDevices },
  { name: '034_ban_list_purpose', sql: banListPurpose },
  { name: '035_zone_plan', sql: zonePlan },
  { name: '036_ban_list_rule_purpose', sql: banListRulePurpose },
  { name: '037_jobs_queue', sql: jobsQueue },
  { name: '038_item_order_buckets', sql: itemOrderBuckets },
  { name: '040_servers', sql: servers },
  { name: '041_alerts', sql: alerts },
  { name: '042_server_review_webhook', sql: serverReviewWebhook },
  { name: '043_crowdsec', sql: crowdsec },
  { name: '044_system_settings', sql: systemSettings },
  { name: '045_plans', sql: plans },
  { name: '046_tickets', sql: tickets },
  { name: '047_notifications', sql: notifications },
  { name: '048_notification_channels', sql: notificationChannels },
  { name: '051_item_buckets_id_walk', sql: itemBucketsIdWalk },
  { name: '052_item_buckets_bulk_rebuild', sql: itemBucketsBulkRebuild },
  { name: '053_alerts_page_indexes', sql: alertsPageIndexes },
  { name: '054_zones_user_order', sql: zonesUserOrder },
  { name: '055_item_buckets_deferred', sql: itemBucketsDeferred },
  { name: '056_zones_kept_per_person', sql: zonesKeptPerPerson },
  { name: '057_item_history_by_value', sql: itemHistoryByValue },
  { name: '058_item_comments_lower_trigrams', sql: itemCommentsLowerTrigrams },
  { name: '059_zone_json_on_row', sql: zoneJsonOnRow },
];
