import { useMutation, useQueryClient } from '@tanstack/react-query';
import { jobEndpoints, type JobsList } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { jobKeys } from './keys';

/** The person has looked at their jobs: the bell's dot goes out until another one ends. */
export function markJobsSeen() {
  return callEndpoint(jobEndpoints.seen);
}

export function useMarkJobsSeenMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markJobsSeen,
    onSuccess: () => {
      queryClient.setQueriesData<JobsList>({ queryKey: jobKeys.lists() }, (list) =>
        list ? { ...list, unseen: 0 } : list,
      );
      // Asked again, replacing any answer on its way that the server gave before it took this in.
      return queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
    },
  });
}
