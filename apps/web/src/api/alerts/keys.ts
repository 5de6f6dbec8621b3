import type { AlertKind, AlertSeverity, AlertState } from '@guardian/contract';

/** What the alerts page filters by (empty strings mean no filter). */
export interface AlertFilters {
  state: AlertState | 'active' | '';
  kind: AlertKind | '';
  severity: AlertSeverity | '';
}

/** Query keys of the person's alerts: the page's lists and the bell's open count. */
export const alertKeys = {
  all: ['alerts'] as const,
  lists: () => [...alertKeys.all, 'list'] as const,
  list: (filters: AlertFilters) => [...alertKeys.lists(), filters] as const,
  summary: () => [...alertKeys.all, 'summary'] as const,
};
