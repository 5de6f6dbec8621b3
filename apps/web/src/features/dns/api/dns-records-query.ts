import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DnsRecord } from '@guardian/contract';
import { api } from '../../../lib/api';
import { dnsKeys } from './keys';

export const dnsRecordsPath = (zoneId: string) => `/cloudflare/zones/${encodeURIComponent(zoneId)}/dns`;

export function fetchDnsRecords(zoneId: string, signal?: AbortSignal): Promise<DnsRecord[]> {
  return api.get<DnsRecord[]>(dnsRecordsPath(zoneId), { signal });
}

export const dnsRecordsQueryOptions = (zoneId: string) =>
  queryOptions({
    queryKey: dnsKeys.records(zoneId),
    queryFn: ({ signal }) => fetchDnsRecords(zoneId, signal),
  });

export function useDnsRecordsQuery(zoneId: string) {
  return useQuery(dnsRecordsQueryOptions(zoneId));
}
