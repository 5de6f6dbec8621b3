import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { reportEndpoints, type ReportQuery } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { reportKeys, type ReportKind } from './keys';

/** The server keeps each answer a minute: asking sooner gets the same answer. */
const REPORT_STALE_MS = 60_000;

const fetchers = {
  security: (query: ReportQuery, signal?: AbortSignal) =>
    callEndpoint(reportEndpoints.security, { query, signal }),
  traffic: (query: ReportQuery, signal?: AbortSignal) =>
    callEndpoint(reportEndpoints.traffic, { query, signal }),
  errors: (query: ReportQuery, signal?: AbortSignal) =>
    callEndpoint(reportEndpoints.errors, { query, signal }),
  performance: (query: ReportQuery, signal?: AbortSignal) =>
    callEndpoint(reportEndpoints.performance, { query, signal }),
};

/** The answer of each report. */
export type ReportAnswer<K extends ReportKind> = Awaited<ReturnType<(typeof fetchers)[K]>>;

export function fetchReport<K extends ReportKind>(kind: K, query: ReportQuery, signal?: AbortSignal) {
  return fetchers[kind](query, signal) as Promise<ReportAnswer<K>>;
}

/**
 * One report over the person's zones, for the filters. A change of filters keeps the last answer on the
 * page (dimmed by the screen) until the new one comes, so the charts do not jump to a spinner.
 */
export function useReportQuery<K extends ReportKind>(kind: K, query: ReportQuery) {
  return useQuery({
    queryKey: reportKeys.report(kind, query),
    queryFn: ({ signal }) => fetchReport(kind, query, signal),
    staleTime: REPORT_STALE_MS,
    placeholderData: keepPreviousData,
  });
}
