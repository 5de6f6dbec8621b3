import type { Endpoint } from './endpoint';
import { accountEndpoints } from './accounts';
import { apiReferenceEndpoints } from './api-reference';
import { authEndpoints } from './auth';
import { banListItemEndpoints } from './ban-list-items';
import { banListEndpoints } from './ban-lists';
import { dnsRecordEndpoints } from './dns-records';
import { firewallRuleEndpoints } from './firewall-rules';
import { healthEndpoints } from './health';
import { pageRuleEndpoints } from './page-rules';
import { snapshotEndpoints } from './snapshots';
import { auditEndpoints } from './audit';
import { apiKeyEndpoints } from './api-keys';
import { twoFactorEndpoints } from './two-factor';
import { ownAccountEndpoints, passwordLinkEndpoints, userEndpoints } from './users';
import { zoneEndpoints } from './zones';
import { zoneSettingEndpoints } from './zone-settings';
import { rulesOverviewEndpoints } from './rules-overview';
import { jobEndpoints } from './jobs';
import { ipSearchEndpoints, listCapacityEndpoints } from './ip-search';

export * from './endpoint';
export * from './accounts';
export * from './api-reference';
export * from './auth';
export * from './ban-list-items';
export * from './ban-lists';
export * from './dns-records';
export * from './firewall-rules';
export * from './health';
export * from './page-rules';
export * from './snapshots';
export * from './audit';
export * from './api-keys';
export * from './two-factor';
export * from './users';
export * from './zones';
export * from './zone-settings';
export * from './rules-overview';
export * from './jobs';
export * from './ip-search';

/** Every endpoint of the API, by resource: the table the server, the docs, the tests and the bench read. */
export const endpoints = {
  health: healthEndpoints,
  auth: authEndpoints,
  users: userEndpoints,
  passwordLinks: passwordLinkEndpoints,
  ownAccount: ownAccountEndpoints,
  accounts: accountEndpoints,
  banLists: banListEndpoints,
  banListItems: banListItemEndpoints,
  zones: zoneEndpoints,
  zoneSettings: zoneSettingEndpoints,
  rulesOverview: rulesOverviewEndpoints,
  dnsRecords: dnsRecordEndpoints,
  firewallRules: firewallRuleEndpoints,
  pageRules: pageRuleEndpoints,
  snapshots: snapshotEndpoints,
  audit: auditEndpoints,
  apiKeys: apiKeyEndpoints,
  twoFactor: twoFactorEndpoints,
  apiReference: apiReferenceEndpoints,
  jobs: jobEndpoints,
  ipSearch: ipSearchEndpoints,
  listCapacity: listCapacityEndpoints,
} as const;

/** The table as one list. */
export const allEndpoints: readonly (Endpoint & { tag: string })[] = Object.values(endpoints).flatMap(
  (group) => Object.values(group),
);
