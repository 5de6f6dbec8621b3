import { useEffect, useRef } from 'react';
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import type { Job } from '@guardian/contract';
import { ApiError } from '../../lib/api';
import { useCancelJobMutation } from './job-cancel-mutation';
import { useJobProgress } from './job-progress';
import { jobQueryOptions, useJobQuery } from './job-query';
import { useJobsQuery } from './jobs-query';
import { hasEnded, jobKeys } from './keys';

/**
 * The one way the web follows a background job: every follower observes the job's query
 * (`jobQueryOptions`: polled every second until it ends, a failed poll tried again at the next tick).
 * A screen follows with `useFollowedJob`; an operation that waits for its job's end (its button busy
 * meanwhile) with `followJob` or `untilEnded`.
 */

/** A 202's job rather than a 200's answer (answers of operations have no `state` and `started_by`). */
export function isJob(answer: unknown): answer is Job {
  return typeof answer === 'object' && answer !== null && 'state' in answer && 'started_by' in answer;
}

/**
 * Follows `job` until it has ended and answers it as it ended, telling `onChange` each newer answer.
 * The job goes into the query cache first, so a screen following it too (its progress strip) shows it
 * at once and shares the polls.
 */
export function followJob(queryClient: QueryClient, job: Job, onChange?: (job: Job) => void): Promise<Job> {
  queryClient.setQueryData(jobKeys.detail(job.id), job);
  if (hasEnded(job)) return Promise.resolve(job);
  const observer = new QueryObserver(queryClient, jobQueryOptions(job.id));
  return new Promise((resolve) => {
    let latest = job;
    const unsubscribe = observer.subscribe(({ data }) => {
      if (!data || data === latest) return;
      latest = data;
      onChange?.(data);
      if (!hasEnded(data)) return;
      unsubscribe();
      resolve(data);
    });
  });
}

/**
 * An operation's answer when it has ended: a 200's answer as it is, or a 202's job followed until it
 * ends: its result when it succeeded, else an ApiError with the job's error in words, which the screen
 * shows after its own text as it does for a short call's failure. The caller's button stays busy
 * meanwhile. The job is announced to the person's job list (the screen's progress strip and the bell
 * find it there).
 */
export async function untilEnded<T>(answer: T | Job, queryClient: QueryClient): Promise<T> {
  if (!isJob(answer)) return answer;
  const ended = followJob(queryClient, answer);
  void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  const job = await ended;
  void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  if (job.state === 'succeeded') return job.result as T;
  const message = job.state === 'cancelled' ? 'The operation was cancelled.' : (job.error ?? 'It failed.');
  throw new ApiError(502, null, message, message);
}

interface FollowedJobOptions {
  /** The job this screen started (a 202's job): followed rather than any found. */
  started?: string | null;
  /**
   * Which of the person's running jobs to follow when this screen started none: found among their
   * jobs, so it shows after a reload or coming back to the screen too. Null: none is looked for.
   */
  find?: ((job: Job) => boolean) | null;
  /** How often the person's jobs are asked for again while looking; by default only when others ask. */
  findEvery?: number | false;
  /** Told once when a job this screen saw running has ended (one found already ended is old news). */
  onEnded?: (job: Job) => void;
}

/**
 * A screen's job: the one it started or found running, polled until it ends, with its progress and
 * Cancel.
 */
export function useFollowedJob({
  started = null,
  find = null,
  findEvery = false,
  onEnded,
}: FollowedJobOptions) {
  const jobs = useJobsQuery('mine', { refetchInterval: findEvery });
  const found = find ? jobs.data?.jobs.find((one) => !hasEnded(one) && find(one)) : undefined;
  const id = started ?? found?.id ?? null;
  const jobQuery = useJobQuery(id);
  const job = jobQuery.data;
  const progress = useJobProgress(job, jobQuery.dataUpdatedAt);
  const cancelMutation = useCancelJobMutation();

  // Read by the effect below, which should not run again only because the screen made a new function.
  const latestOnEnded = useRef(onEnded);
  useEffect(() => {
    latestOnEnded.current = onEnded;
  });
  const seenRunning = useRef(new Set<string>());
  const announced = useRef(new Set<string>());
  useEffect(() => {
    if (!job) return;
    if (!hasEnded(job)) {
      seenRunning.current.add(job.id);
      return;
    }
    if (!seenRunning.current.has(job.id) || announced.current.has(job.id)) return;
    announced.current.add(job.id);
    latestOnEnded.current?.(job);
  }, [job]);

  const running = job && !hasEnded(job) ? job : null;
  return {
    /** The job followed (started or found), null while there is none. */
    id,
    /** The job followed as last polled, ended too; undefined until its first answer. */
    job,
    /** The job followed while it runs (queued or running). */
    running,
    /** How far the job is, as of its last poll. */
    progress,
    cancel: () => (running ? cancelMutation.mutateAsync(running) : Promise.resolve(null)),
    isCancelling: cancelMutation.isPending || (running?.cancel_requested ?? false),
  };
}
