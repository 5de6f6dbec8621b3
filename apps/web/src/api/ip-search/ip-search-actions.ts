import type { QueryClient } from '@tanstack/react-query';
import {
  ipSearchEndpoints,
  type BanEverywhereRequest,
  type IpSearchActionAnswer,
  type Job,
  type RemoveMatchesRequest,
} from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { hasEnded, jobKeys } from '../jobs/keys';
import { fetchJob, JOB_POLL_MS } from '../jobs/job-query';
import { banListKeys } from '../ban-lists/keys';
import { ipSearchKeys } from './keys';
import { listCapacityKeys } from './list-capacity-query';

export type ActionPart = IpSearchActionAnswer['parts'][number];

/**
 * Follows every account's job of an action until each has ended, telling `onPart` each change (the
 * screen shows each account's progress and outcome); one account's failure does not stop the others.
 */
export async function followParts(
  answer: IpSearchActionAnswer,
  onPart: (index: number, job: Job) => void,
  queryClient?: QueryClient,
): Promise<Job[]> {
  if (queryClient) void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  const jobs = await Promise.all(
    answer.parts.map(async (part, index) => {
      let job = part.job;
      onPart(index, job);
      while (!hasEnded(job)) {
        await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
        try {
          job = await fetchJob(job.id);
        } catch {
          // A poll that failed once (a restart of the server) is tried again at the next tick.
          continue;
        }
        onPart(index, job);
      }
      return job;
    }),
  );
  if (queryClient) {
    void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: ipSearchKeys.all });
    void queryClient.invalidateQueries({ queryKey: banListKeys.all });
    void queryClient.invalidateQueries({ queryKey: listCapacityKeys.all });
  }
  return jobs;
}

export function banEverywhere(body: BanEverywhereRequest) {
  return callEndpoint(ipSearchEndpoints.ban, { body });
}

export function removeMatches(body: RemoveMatchesRequest) {
  return callEndpoint(ipSearchEndpoints.remove, { body });
}
