import { useMutation, useQueryClient } from '@tanstack/react-query';
import { jobEndpoints, type Job } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { jobKeys } from './keys';

/** Cancels a job the person started: at once if it waits, at its next step if it runs. */
export function cancelJob(id: string) {
  return callEndpoint(jobEndpoints.cancel, { params: { id } });
}

export function useCancelJobMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (job: Pick<Job, 'id'>) => cancelJob(job.id),
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.detail(job.id), job);
      return queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
    },
  });
}
