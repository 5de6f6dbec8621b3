import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys } from '../ban-list-items/keys';
import { banListKeys } from '../ban-lists/keys';
import { dnsRecordKeys } from '../dns-records/keys';
import { ipSearchKeys } from '../ip-search/keys';
import { rulesOverviewKeys } from '../rules-overview/keys';
import { snapshotKeys } from '../snapshots/keys';
import { zoneKeys } from '../zones/keys';
import { accountKeys } from './keys';

/** Removes the account from Guardian by Guardian's id of it (nothing is deleted at Cloudflare). */
export function deleteAccount(id: number) {
  return callEndpoint(accountEndpoints.remove, { params: { id } });
}

export function useDeleteAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    // Its lists with their items, its zones with their records and rules, and its snapshots went with it.
    onSuccess: () => {
      for (const queryKey of [
        banListItemKeys.all,
        dnsRecordKeys.all,
        rulesOverviewKeys.all,
        ipSearchKeys.all,
      ])
        queryClient.removeQueries({ queryKey });
      return Promise.all(
        [accountKeys.list(), banListKeys.list(), zoneKeys.all, snapshotKeys.all].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
