import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { dnsRecordKeys, dnsRecordsPath } from './keys';

export function deleteDnsRecord(zoneId: string, recordId: string): Promise<void> {
  return api.delete<void>(`${dnsRecordsPath(zoneId)}/${encodeURIComponent(recordId)}`);
}

export function useDeleteDnsRecordMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recordId: string) => deleteDnsRecord(zoneId, recordId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnsRecordKeys.list(zoneId) }),
  });
}
