/** @guardian/sandbox: a stateful emulator of the Cloudflare API v4 subset Guardian uses. */
export { createSandbox, API_PREFIX, CONTROL_PREFIX } from './sandbox';
export type { Sandbox, SandboxOptions } from './sandbox';
export type {
  AccountInput,
  AccountView,
  BulkOperationView,
  DnsRecordView,
  ListItemView,
  ListView,
  PageRuleView,
  RuleView,
  RulesetView,
  SandboxControl,
  SandboxSnapshot,
  TokenInfo,
  TokenInput,
  ZoneSettingsView,
  ZoneView,
} from './control';
export { CONTROL_SECRET_HEADER } from './control';
export type { Fault, FaultSpec, FaultStatus, HostileAnswer } from './faults';
export type { CallFilter, CallRecord } from './call-log';
export type { ListKind, Plan, TokenKind, TokenStatus } from './state';
export { PLAN_LIMITS, type PlanLimits } from './plans';
export { DATASET_SETTINGS, DATASETS, type Dataset, type DatasetSettings } from './analytics/datasets';
export type { SecurityEventInput } from './analytics/added-events';
