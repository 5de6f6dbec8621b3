import { queryOptions, useQuery } from '@tanstack/react-query';
import { jobEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { hasEnded, jobKeys } from './keys';

/** How often a running job's progress is asked for. */
export const JOB_POLL_MS = 1_000;

export function fetchJob(id: string, signal?: AbortSignal) {
  return callEndpoint(jobEndpoints.get, { params: { id }, signal });
}

/**
 * One job, asked for again every second until it has ended (succeeded, failed or cancelled): the one
 * query every follower of a job observes (follow-job.ts), so a screen's strip and the operation
 * waiting for the same job share each poll.
 */
export function jobQueryOptions(id: string) {
  return queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: ({ signal }) => fetchJob(id, signal),
    refetchInterval: (query) => (query.state.data && hasEnded(query.state.data) ? false : JOB_POLL_MS),
    // A poll that failed once (a restart of the server) is tried again at the next tick.
    refetchIntervalInBackground: true,
  });
}

export function useJobQuery(id: string | null) {
  return useQuery({ ...jobQueryOptions(id ?? ''), enabled: id !== null });
}
