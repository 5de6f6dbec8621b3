import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dnsRecordEndpoints, type DnsRecordInput } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { dnsRecordKeys } from './keys';

export function updateDnsRecord(zoneId: string, recordId: string, record: DnsRecordInput) {
  return callEndpoint(dnsRecordEndpoints.update, {
    params: { zone_id: zoneId, record_id: recordId },
    body: record,
  });
}

/** A type change replaces the record at Cloudflare (new id); the re-fetched list shows it. */
export function useUpdateDnsRecordMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ recordId, record }: { recordId: string; record: DnsRecordInput }) =>
      updateDnsRecord(zoneId, recordId, record),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: dnsRecordKeys.list(zoneId) }),
  });
}
