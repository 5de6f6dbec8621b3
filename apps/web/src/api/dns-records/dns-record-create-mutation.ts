import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dnsRecordEndpoints, type DnsRecordInput } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { dnsRecordKeys } from './keys';

export function createDnsRecord(zoneId: string, record: DnsRecordInput) {
  return callEndpoint(dnsRecordEndpoints.add, { params: { zone_id: zoneId }, body: record });
}

export function useCreateDnsRecordMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (record: DnsRecordInput) => createDnsRecord(zoneId, record),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: dnsRecordKeys.list(zoneId) }),
  });
}
