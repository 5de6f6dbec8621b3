import { useMutation, type QueryClient } from '@tanstack/react-query';
import {
  ipSearchEndpoints,
  type BanEverywhereRequest,
  type IpSearchActionAnswer,
  type Job,
  type RemoveMatchesRequest,
} from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { followJob } from '../jobs/follow-job';
import { jobKeys } from '../jobs/keys';
import { banListKeys } from '../ban-lists/keys';
import { ipSearchKeys } from './keys';
import { listCapacityKeys } from './list-capacity-query';
import { reportKeys } from '../reports/keys';

export type ActionPart = IpSearchActionAnswer['parts'][number];

/**
 * Follows every account's job of an action until each has ended, telling `onPart` each change (the
 * screen shows each account's progress and outcome); one account's failure does not stop the others.
 */
export async function followParts(
  answer: IpSearchActionAnswer,
  onPart: (index: number, job: Job) => void,
  queryClient: QueryClient,
): Promise<Job[]> {
  void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  const jobs = await Promise.all(
    answer.parts.map((part, index) => {
      onPart(index, part.job);
      return followJob(queryClient, part.job, (job) => onPart(index, job));
    }),
  );
  void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: ipSearchKeys.all });
  void queryClient.invalidateQueries({ queryKey: banListKeys.all });
  void queryClient.invalidateQueries({ queryKey: listCapacityKeys.all });
  // The security report's source IPs say which lists hold them.
  void queryClient.invalidateQueries({ queryKey: reportKeys.all });
  return jobs;
}

export function banEverywhere(body: BanEverywhereRequest) {
  return callEndpoint(ipSearchEndpoints.ban, { body });
}

/** Starts Ban everywhere; its answer is each account's job, which the screen follows (followParts). */
export function useBanEverywhereMutation() {
  return useMutation({ mutationFn: banEverywhere });
}

export function removeMatches(body: RemoveMatchesRequest) {
  return callEndpoint(ipSearchEndpoints.remove, { body });
}
