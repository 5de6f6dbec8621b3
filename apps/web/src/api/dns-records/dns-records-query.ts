import { queryOptions, useQuery } from '@tanstack/react-query';
import { dnsRecordEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { dnsRecordKeys } from './keys';

export function fetchDnsRecords(zoneId: string, signal?: AbortSignal) {
  return callEndpoint(dnsRecordEndpoints.list, { params: { zone_id: zoneId }, signal });
}

export const dnsRecordsQueryOptions = (zoneId: string) =>
  queryOptions({
    queryKey: dnsRecordKeys.list(zoneId),
    queryFn: ({ signal }) => fetchDnsRecords(zoneId, signal),
  });

export function useDnsRecordsQuery(zoneId: string) {
  return useQuery(dnsRecordsQueryOptions(zoneId));
}
