import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DnsRecord, DnsRecordInput } from '@guardian/contract';
import { api } from '../../lib/api';
import { dnsRecordKeys, dnsRecordsPath } from './keys';

export function createDnsRecord(zoneId: string, record: DnsRecordInput): Promise<DnsRecord> {
  return api.post<DnsRecord>(dnsRecordsPath(zoneId), record);
}

export function useCreateDnsRecordMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (record: DnsRecordInput) => createDnsRecord(zoneId, record),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsRecordKeys.list(zoneId) }),
  });
}
