import { useState } from 'react';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { banListItemEndpoints, type BanList, type Job } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys } from '../ban-list-items/keys';
import { isJob, useFollowedJob } from '../jobs/follow-job';
import { jobKeys } from '../jobs/keys';
import { banListKeys } from './keys';

/** What a sync answers: the list when it ended within the server's wait, else its job (202), still going. */
export type BanListSyncAnswer = BanList | Job;

/** The job's kind for a list sync (`JOB_KINDS` of the contract). */
const BAN_LIST_SYNC = 'ban-list-sync';

/** Replaces the list's local items with everything Cloudflare holds; the list, or the job of a long sync. */
export function syncBanList(listId: string): Promise<BanListSyncAnswer> {
  return callEndpoint(banListItemEndpoints.sync, { params: { list_id: listId } });
}

/** A sync ended well: the items, the lists' counts and the bell (a job ended) are re-fetched. */
function refetchSynced(queryClient: QueryClient, listId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: banListItemKeys.list(listId) }),
    queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
    queryClient.invalidateQueries({ queryKey: jobKeys.lists() }),
  ]);
}

export function useSyncBanListMutation(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => syncBanList(listId),
    // A failed sync keeps the old items (one transaction), so only a success re-fetches; a long one
    // re-fetches when its job ends (useBanListSync).
    onSuccess: (answer) => {
      if (!isJob(answer)) return refetchSynced(queryClient, listId);
      queryClient.setQueryData(jobKeys.detail(answer.id), answer);
      return queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
    },
    // A failed sync is a job that ended too: the bell may light.
    onError: () => queryClient.invalidateQueries({ queryKey: jobKeys.lists() }),
  });
}

/**
 * "Update from Cloudflare" of one list, short or long. `start` answers the list (a short sync, ended)
 * or its job; a long sync's job is then polled until it ends, and so is a running sync of this list
 * found among the person's jobs when the screen opens (after a reload, or coming back to the page).
 * When a job this screen saw running ends, a success re-fetches the items and `onEnded` tells the
 * screen (its toast).
 *
 * A running one is matched to this list by its `list_id`.
 */
export function useBanListSync(listId: string, onEnded: (job: Job) => void) {
  const queryClient = useQueryClient();
  const mutation = useSyncBanListMutation(listId);
  const [startedId, setStartedId] = useState<string | null>(null);
  const followed = useFollowedJob({
    started: startedId,
    find: (job) => job.kind === BAN_LIST_SYNC && job.list_id === listId,
    onEnded: (job) => {
      if (job.state === 'succeeded') void refetchSynced(queryClient, listId);
      else void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
      onEnded(job);
    },
  });

  const start = async () => {
    const answer = await mutation.mutateAsync();
    if (isJob(answer)) setStartedId(answer.id);
    return answer;
  };

  return {
    start,
    /** The short sync's call is on its way. */
    isPending: mutation.isPending,
    /** The long sync's job, while it runs (queued or running). */
    job: followed.running,
    progress: followed.running ? followed.progress : null,
    cancel: followed.cancel,
    isCancelling: followed.isCancelling,
  };
}
