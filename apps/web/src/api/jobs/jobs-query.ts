import { useQuery } from '@tanstack/react-query';
import { jobEndpoints, type JobsList } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { jobKeys, type JobsScope } from './keys';

export function fetchJobs(scope: JobsScope, signal?: AbortSignal) {
  return callEndpoint(jobEndpoints.list, { query: { scope }, signal });
}

/** How often to ask again: a number of ms, false for never, or decided from the latest answer. */
type RefetchInterval = number | false | ((list: JobsList | undefined) => number | false);

/**
 * The person's jobs (or everyone's), newest first, with the count of their own that ended unseen.
 * `refetchInterval` keeps it fresh where it is shown (the bell, the jobs view).
 */
export function useJobsQuery(scope: JobsScope = 'mine', options: { refetchInterval?: RefetchInterval } = {}) {
  const interval = options.refetchInterval ?? false;
  return useQuery({
    queryKey: jobKeys.list(scope),
    queryFn: ({ signal }) => fetchJobs(scope, signal),
    refetchInterval: typeof interval === 'function' ? (query) => interval(query.state.data) : interval,
  });
}
