import type { Plan } from '../state';

/** The zone datasets of Cloudflare's GraphQL Analytics API the sandbox serves. */
export const DATASETS = [
  'firewallEventsAdaptive',
  'firewallEventsAdaptiveGroups',
  'httpRequestsAdaptiveGroups',
] as const;
export type Dataset = (typeof DATASETS)[number];

/**
 * What a dataset's `settings` node answers for a zone (seconds for the two durations). Cloudflare
 * answers these per zone and documents only the shape and one sample (firewallEventsAdaptive:
 * maxDuration 259200, maxNumberOfFields 30, maxPageSize 10000, notOlderThan 2678400); the figures per
 * plan below are the sandbox's, shaped on what is known: the grouped firewall dataset is not on Free
 * zones ("does not have access to the path"), higher plans read further back and wider ranges.
 */
export interface DatasetSettings {
  enabled: boolean;
  maxDuration: number;
  maxNumberOfFields: number;
  maxPageSize: number;
  notOlderThan: number;
}

const DAY = 86_400;
const settings = (notOlderThan: number, maxDuration: number): DatasetSettings => ({
  enabled: true,
  maxDuration,
  maxNumberOfFields: 30,
  maxPageSize: 10_000,
  notOlderThan,
});
const disabled: DatasetSettings = {
  enabled: false,
  maxDuration: 0,
  maxNumberOfFields: 0,
  maxPageSize: 0,
  notOlderThan: 0,
};

export const DATASET_SETTINGS: Record<Plan, Record<Dataset, DatasetSettings>> = {
  free: {
    firewallEventsAdaptive: settings(DAY, DAY),
    firewallEventsAdaptiveGroups: disabled,
    httpRequestsAdaptiveGroups: settings(8 * DAY, DAY),
  },
  pro: {
    firewallEventsAdaptive: settings(3 * DAY, DAY),
    firewallEventsAdaptiveGroups: settings(3 * DAY, 3 * DAY),
    httpRequestsAdaptiveGroups: settings(8 * DAY, 3 * DAY),
  },
  business: {
    firewallEventsAdaptive: settings(31 * DAY, 3 * DAY),
    firewallEventsAdaptiveGroups: settings(31 * DAY, 8 * DAY),
    httpRequestsAdaptiveGroups: settings(31 * DAY, 8 * DAY),
  },
  enterprise: {
    firewallEventsAdaptive: settings(31 * DAY, 3 * DAY),
    firewallEventsAdaptiveGroups: settings(31 * DAY, 31 * DAY),
    httpRequestsAdaptiveGroups: settings(31 * DAY, 31 * DAY),
  },
};
