import type { ActivityQuery, ReportQuery } from '@guardian/contract';

/** Which report of the Reports pages (and Dashboard > Performance), read with a `ReportQuery`. */
export type ReportKind = 'security' | 'traffic' | 'errors' | 'performance';

/** Query keys of the Reports pages and the overview's tiles: one answer per report and filters. */
export const reportKeys = {
  all: ['reports'] as const,
  report: (kind: ReportKind, query: ReportQuery) => [...reportKeys.all, kind, query] as const,
  overview: () => [...reportKeys.all, 'overview'] as const,
  activity: (query: ActivityQuery) => [...reportKeys.all, 'activity', query] as const,
};
