export {
  AnswerTooLarge,
  CloudflareGateway,
  CLOUDFLARE_DEFAULTS,
  readCapped,
  type CloudflareOptions,
} from './client';
export { cloudflareErrorToAppError, isCloudflareNotFound } from './errors';
export {
  operationEnd,
  waitForBulkOperation,
  writeListItems,
  WriteOutcomeUnknown,
  type OperationEnd,
} from './bulk-operations';
export { accountClient, type AccountClientDeps } from './account-client';
export {
  ANALYTICS_DATASETS,
  AnalyticsRefusal,
  MAX_ZONES_PER_QUERY,
  queryAnalytics,
  zoneAnalyticsSettings,
  zoneBatches,
  type AnalyticsDataset,
  type AnalyticsRefusalReason,
  type DatasetSettings,
  type ZoneAnalyticsSettings,
} from './analytics';
