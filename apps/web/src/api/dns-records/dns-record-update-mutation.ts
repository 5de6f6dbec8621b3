import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DnsRecord, DnsRecordInput } from '@guardian/contract';
import { api } from '../../lib/api';
import { dnsRecordKeys, dnsRecordsPath } from './keys';

export function updateDnsRecord(
  zoneId: string,
  recordId: string,
  record: DnsRecordInput,
): Promise<DnsRecord> {
  return api.put<DnsRecord>(`${dnsRecordsPath(zoneId)}/${encodeURIComponent(recordId)}`, record);
}

/** A type change replaces the record at Cloudflare (new id); the re-fetched list shows it. */
export function useUpdateDnsRecordMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ recordId, record }: { recordId: string; record: DnsRecordInput }) =>
      updateDnsRecord(zoneId, recordId, record),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsRecordKeys.list(zoneId) }),
  });
}
