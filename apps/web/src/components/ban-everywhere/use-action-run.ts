import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { IpSearchActionAnswer, Job } from '@guardian/contract';
import { followParts } from '../../api/ip-search/ip-search-actions';
import type { ActionRun } from './action-progress';

/**
 * An action's run on the page (Ban everywhere, Remove from lists): `follow` shows each account's part as
 * its job goes (ActionProgress) and resolves with the jobs once every one has ended.
 */
export function useActionRun() {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<ActionRun | null>(null);
  const follow = (title: string, started: IpSearchActionAnswer): Promise<Job[]> => {
    setRun({ title, parts: started.parts });
    return followParts(
      started,
      (index, job) =>
        setRun((current) =>
          current && current.parts[index]
            ? { ...current, parts: current.parts.map((part, i) => (i === index ? { ...part, job } : part)) }
            : current,
        ),
      queryClient,
    );
  };
  return { run, follow, dismiss: () => setRun(null) };
}
