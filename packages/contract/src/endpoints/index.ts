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
import { userEndpoints } from './users';
import { zoneEndpoints } from './zones';

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
export * from './users';
export * from './zones';

/** Every endpoint of the API, by resource: the table the server, the docs, the tests and the bench read. */
export const endpoints = {
  health: healthEndpoints,
  auth: authEndpoints,
  users: userEndpoints,
  accounts: accountEndpoints,
  banLists: banListEndpoints,
  banListItems: banListItemEndpoints,
  zones: zoneEndpoints,
  dnsRecords: dnsRecordEndpoints,
  firewallRules: firewallRuleEndpoints,
  pageRules: pageRuleEndpoints,
  apiReference: apiReferenceEndpoints,
} as const;

/** The table as one list. */
export const allEndpoints: readonly (Endpoint & { tag: string })[] = Object.values(endpoints).flatMap(
  (group) => Object.values(group),
);
