import { useQuery } from '@tanstack/react-query';
import { jobEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { hasEnded, jobKeys } from './keys';

/** How often a running job's progress is asked for. */
export const JOB_POLL_MS = 1_000;

export function fetchJob(id: string, signal?: AbortSignal) {
  return callEndpoint(jobEndpoints.get, { params: { id }, signal });
}

/** One job, asked for again every second until it has ended (succeeded, failed or cancelled). */
export function useJobQuery(id: string | null) {
  return useQuery({
    queryKey: jobKeys.detail(id ?? ''),
    queryFn: ({ signal }) => fetchJob(id ?? '', signal),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && hasEnded(query.state.data) ? false : JOB_POLL_MS),
    // A poll that failed once (a restart of the server) is tried again at the next tick.
    refetchIntervalInBackground: true,
  });
}
