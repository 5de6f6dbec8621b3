import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Zone } from '@guardian/contract';
import { api } from '../../lib/api';
import { zoneKeys, zonesPath } from './keys';

export function fetchZones(signal?: AbortSignal): Promise<Zone[]> {
  return api.get<Zone[]>(zonesPath, { signal });
}

export const zonesQueryOptions = () =>
  queryOptions({ queryKey: zoneKeys.list(), queryFn: ({ signal }) => fetchZones(signal) });

export function useZonesQuery() {
  return useQuery(zonesQueryOptions());
}
