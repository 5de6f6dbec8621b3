import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { reportEndpoints, type ReportQuery, type ReportScope } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { reportKeys, type ReportKind } from './keys';

/** The server keeps each answer a minute: asking sooner gets the same answer. */
const REPORT_STALE_MS = 60_000;
/**
 * How often a partial report (`scope.complete` false: the server answered with the zones read so far
 * and reads on) is asked for again; each ask shares the server's one reading, so it costs no query.
 */
export const REPORT_PARTIAL_POLL_MS = 1_000;

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

/** A report the server is still reading (Performance is read whole: it has no top-level scope). */
const isPartial = (answer: object | undefined) =>
  answer !== undefined && 'scope' in answer && (answer.scope as ReportScope).complete === false;

/**
 * One report over the person's zones, for the filters. A change of filters keeps the last answer on the
 * page (dimmed by the screen) until the new one comes, so the charts do not jump to a spinner. A
 * partial answer is asked for again every second until it is complete; the page shows how far it is.
 */
export function useReportQuery<K extends ReportKind>(kind: K, query: ReportQuery) {
  return useQuery({
    queryKey: reportKeys.report(kind, query),
    queryFn: ({ signal }) => fetchReport(kind, query, signal),
    staleTime: (cached) => (isPartial(cached.state.data) ? 0 : REPORT_STALE_MS),
    refetchInterval: (cached) =>
      isPartial(cached.state.data) && cached.state.status !== 'error' ? REPORT_PARTIAL_POLL_MS : false,
    placeholderData: keepPreviousData,
  });
}
