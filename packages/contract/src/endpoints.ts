import type { Endpoint } from './shared/endpoint';
import { accountEndpoints } from './accounts/accounts.endpoints';
import { apiReferenceEndpoints } from './shared/api-reference';
import { authEndpoints } from './auth/auth.endpoints';
import { banListItemEndpoints } from './ban-list-items/ban-list-items.endpoints';
import { banListEndpoints } from './ban-lists/ban-lists.endpoints';
import { dnsRecordEndpoints } from './dns-records/dns-records.endpoints';
import { firewallRuleEndpoints } from './firewall-rules/firewall-rules.endpoints';
import { healthEndpoints } from './health/health.endpoints';
import { pageRuleEndpoints } from './page-rules/page-rules.endpoints';
import { snapshotEndpoints } from './snapshots/snapshots.endpoints';
import { auditEndpoints } from './audit/audit.endpoints';
import { apiKeyEndpoints } from './api-keys/api-keys.endpoints';
import { twoFactorEndpoints } from './two-factor/two-factor.endpoints';
import { ownAccountEndpoints, passwordLinkEndpoints, userEndpoints } from './users/users.endpoints';
import { zoneEndpoints } from './zones/zones.endpoints';
import { zoneSettingEndpoints } from './zone-settings/zone-settings.endpoints';
import { rulesOverviewEndpoints } from './rules-overview/rules-overview.endpoints';
import { jobEndpoints } from './jobs/jobs.endpoints';
import { ipSearchEndpoints } from './ip-search/ip-search.endpoints';
import { listCapacityEndpoints } from './list-capacity/list-capacity.endpoints';
import { reportEndpoints } from './reports/reports.endpoints';
import { serverApiEndpoints, serverEndpoints } from './servers/servers.endpoints';
import { crowdsecEndpoints } from './servers/crowdsec.endpoints';
import { alertEndpoints } from './alerts/alerts.endpoints';
import { helpdeskEndpoints, ticketEndpoints } from './tickets/tickets.endpoints';
import { systemSettingEndpoints } from './system-settings/system-settings.endpoints';
import { planEndpoints } from './plans/plans.endpoints';
import { notificationChannelEndpoints } from './notification-channels/notification-channels.endpoints';
import { notificationEndpoints } from './notifications/notifications.endpoints';

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
  reports: reportEndpoints,
  servers: serverEndpoints,
  serverApi: serverApiEndpoints,
  crowdsec: crowdsecEndpoints,
  alerts: alertEndpoints,
  tickets: ticketEndpoints,
  helpdesk: helpdeskEndpoints,
  systemSettings: systemSettingEndpoints,
  plans: planEndpoints,
  notificationChannels: notificationChannelEndpoints,
  notifications: notificationEndpoints,
} as const;

/** The table as one list. */
export const allEndpoints: readonly (Endpoint & { tag: string })[] = Object.values(endpoints).flatMap(
  (group) => Object.values(group),
);
