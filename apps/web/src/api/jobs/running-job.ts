import type { JobKind } from '@guardian/contract';
import { useCancelJobMutation } from './job-cancel-mutation';
import { useJobProgress } from './job-progress';
import { useJobQuery } from './job-query';
import { useJobsQuery } from './jobs-query';
import { hasEnded } from './keys';

/**
 * The person's running job of one kind that is not about one thing (Update of the lists, Clean All,
 * the zones' Update List: one at a time per person), with its progress: found among their jobs, so
 * it shows after a reload or coming back to the screen too, and polled every second until it ends.
 */
export function useRunningJob(kind: JobKind) {
  const jobs = useJobsQuery('mine');
  const running = jobs.data?.jobs.find((job) => job.kind === kind && !hasEnded(job));
  const jobQuery = useJobQuery(running?.id ?? null);
  const job = jobQuery.data && !hasEnded(jobQuery.data) ? jobQuery.data : null;
  const progress = useJobProgress(job ?? undefined, jobQuery.dataUpdatedAt);
  const cancelMutation = useCancelJobMutation();
  return {
    job,
    progress: job ? progress : null,
    cancel: () => (job ? cancelMutation.mutateAsync(job) : Promise.resolve(null)),
    isCancelling: cancelMutation.isPending || (job?.cancel_requested ?? false),
  };
}
