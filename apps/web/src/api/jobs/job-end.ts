import type { Job } from '@guardian/contract';
import { ApiError } from '../../lib/api';
import { fetchJob, JOB_POLL_MS } from './job-query';
import { hasEnded } from './keys';

/** A 202's job rather than a 200's answer (answers of operations have no `state` and `started_by`). */
export function isJob(answer: unknown): answer is Job {
  return typeof answer === 'object' && answer !== null && 'state' in answer && 'started_by' in answer;
}

/**
 * An operation's answer when it has ended: a 200's answer as it is, or a 202's job followed (polled
 * every second) until it ends: its result when it succeeded, else an ApiError with the job's error in
 * words, which the screen shows after its own text as it does for a short call's failure. The caller's
 * button stays busy meanwhile; the bell's Operations view shows the job's progress.
 */
export async function untilEnded<T>(answer: T | Job): Promise<T> {
  if (!isJob(answer)) return answer;
  let job = answer;
  while (!hasEnded(job)) {
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
    job = await fetchJob(job.id);
  }
  if (job.state === 'succeeded') return job.result as T;
  const message = job.state === 'cancelled' ? 'The operation was cancelled.' : (job.error ?? 'It failed.');
  throw new ApiError(502, null, message, message);
}
