import { useMutation, useQueryClient } from '@tanstack/react-query';
import { snapshotEndpoints, type Snapshot } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListItemKeys } from '../ban-list-items/keys';
import { banListKeys } from '../ban-lists/keys';
import { dnsRecordKeys } from '../dns-records/keys';
import { snapshotKeys } from './keys';

/** Puts back at Cloudflare what the snapshot kept; answers the snapshot, now restored. */
export function restoreSnapshot(snapshot: Snapshot) {
  return callEndpoint(snapshotEndpoints.restore, { params: { id: snapshot.id } });
}

export function useRestoreSnapshotMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreSnapshot,
    // A failed restore may have put part of it back: everything it touches is read again either way.
    onSettled: (_restored, _error, snapshot) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: snapshotKeys.all }),
        ...(snapshot.kind === 'dns-record'
          ? [queryClient.invalidateQueries({ queryKey: dnsRecordKeys.list(snapshot.zone_id ?? '') })]
          : [
              queryClient.invalidateQueries({ queryKey: banListKeys.all }),
              queryClient.invalidateQueries({ queryKey: banListItemKeys.all }),
            ]),
      ]),
  });
}
