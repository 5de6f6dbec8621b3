import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { JobsList } from '@guardian/contract';
import { useJobsQuery } from '../jobs/jobs-query';
import { hasEnded } from '../jobs/keys';
import { banListKeys } from './keys';

/** How often the person's jobs and lists are read again while a list sync runs in the background. */
const SYNCING_POLL_MS = 2_000;

const runningSyncs = (list: JobsList | undefined) =>
  list?.jobs.filter((job) => job.kind === 'ban-list-sync' && !hasEnded(job)).length ?? 0;

/**
 * Keeps the ban lists' counts fresh while jobs sync lists in the background (a newly added account's
 * lists, issue 35 item 5; a write whose outcome was lost): the person's jobs are read every 2 s while
 * such a sync runs, and the lists again with each read and once after the last sync ended.
 */
export function useBanListsFollowSyncs(): void {
  const queryClient = useQueryClient();
  const jobs = useJobsQuery('mine', {
    refetchInterval: (list) => (runningSyncs(list) > 0 ? SYNCING_POLL_MS : false),
  });
  const running = runningSyncs(jobs.data);
  const wereRunning = useRef(0);
  useEffect(() => {
    if (running > 0 || wereRunning.current > 0)
      void queryClient.invalidateQueries({ queryKey: banListKeys.list() });
    wereRunning.current = running;
  }, [running, jobs.dataUpdatedAt, queryClient]);
}
