import type { QueryClient } from '@tanstack/react-query';
import type { Job } from '@guardian/contract';
import { ApiError } from '../../lib/api';
import { fetchJob, JOB_POLL_MS } from './job-query';
import { hasEnded, jobKeys } from './keys';

/** A 202's job rather than a 200's answer (answers of operations have no `state` and `started_by`). */
export function isJob(answer: unknown): answer is Job {
  return typeof answer === 'object' && answer !== null && 'state' in answer && 'started_by' in answer;
}

/**
 * An operation's answer when it has ended: a 200's answer as it is, or a 202's job followed (polled
 * every second) until it ends: its result when it succeeded, else an ApiError with the job's error in
 * words, which the screen shows after its own text as it does for a short call's failure. The caller's
 * button stays busy meanwhile. Given the query client, the job is announced to the person's job list
 * (the screen's progress strip, useRunningJob, and the bell find it there) and polled through the
 * query cache, so the strip's poll and this one are one request.
 */
export async function untilEnded<T>(answer: T | Job, queryClient?: QueryClient): Promise<T> {
  if (!isJob(answer)) return answer;
  let job = answer;
  if (queryClient) {
    queryClient.setQueryData(jobKeys.detail(job.id), job);
    void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  }
  while (!hasEnded(job)) {
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
    const { id } = job;
    job = queryClient
      ? await queryClient.fetchQuery({
          queryKey: jobKeys.detail(id),
          queryFn: ({ signal }) => fetchJob(id, signal),
          staleTime: JOB_POLL_MS / 2,
        })
      : await fetchJob(id);
  }
  if (queryClient) void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  if (job.state === 'succeeded') return job.result as T;
  const message = job.state === 'cancelled' ? 'The operation was cancelled.' : (job.error ?? 'It failed.');
  throw new ApiError(502, null, message, message);
}
