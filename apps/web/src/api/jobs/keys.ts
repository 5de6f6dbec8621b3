import type { Job, JobState } from '@guardian/contract';

/** Whose jobs a list holds: the person's own, or everyone's (administrators). */
export type JobsScope = 'mine' | 'all';

/** Query keys of the background operations: the bell, the jobs view and a sync's progress. */
export const jobKeys = {
  all: ['jobs'] as const,
  /** GET /api/jobs, per scope (both carry the person's `unseen` count). */
  lists: () => [...jobKeys.all, 'list'] as const,
  list: (scope: JobsScope) => [...jobKeys.lists(), scope] as const,
  /** GET /api/jobs/:id, polled while it runs. */
  detail: (id: string) => [...jobKeys.all, 'detail', id] as const,
};

const ENDED: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

/** A job that will not change any more. */
export function hasEnded(job: Pick<Job, 'state'>): boolean {
  return ENDED.includes(job.state);
}
