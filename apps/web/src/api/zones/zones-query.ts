import { queryOptions, useQuery } from '@tanstack/react-query';
import { zoneEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { zoneKeys } from './keys';

export function fetchZones(signal?: AbortSignal) {
  return callEndpoint(zoneEndpoints.list, { signal });
}

export const zonesQueryOptions = () =>
  queryOptions({ queryKey: zoneKeys.list(), queryFn: ({ signal }) => fetchZones(signal) });

export function useZonesQuery() {
  return useQuery(zonesQueryOptions());
}
