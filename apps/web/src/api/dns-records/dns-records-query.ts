import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DnsRecord } from '@guardian/contract';
import { api } from '../../lib/api';
import { dnsRecordKeys, dnsRecordsPath } from './keys';

export function fetchDnsRecords(zoneId: string, signal?: AbortSignal): Promise<DnsRecord[]> {
  return api.get<DnsRecord[]>(dnsRecordsPath(zoneId), { signal });
}

export const dnsRecordsQueryOptions = (zoneId: string) =>
  queryOptions({
    queryKey: dnsRecordKeys.list(zoneId),
    queryFn: ({ signal }) => fetchDnsRecords(zoneId, signal),
  });

export function useDnsRecordsQuery(zoneId: string) {
  return useQuery(dnsRecordsQueryOptions(zoneId));
}
