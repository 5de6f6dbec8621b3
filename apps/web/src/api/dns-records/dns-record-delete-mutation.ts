import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dnsRecordEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { snapshotKeys } from '../snapshots/keys';
import { dnsRecordKeys } from './keys';

export function deleteDnsRecord(zoneId: string, recordId: string) {
  return callEndpoint(dnsRecordEndpoints.remove, { params: { zone_id: zoneId, record_id: recordId } });
}

export function useDeleteDnsRecordMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recordId: string) => deleteDnsRecord(zoneId, recordId),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: dnsRecordKeys.list(zoneId) }),
        // The delete kept a snapshot of the record.
        queryClient.invalidateQueries({ queryKey: snapshotKeys.all }),
      ]),
  });
}
