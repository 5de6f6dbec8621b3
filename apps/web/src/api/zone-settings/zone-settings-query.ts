import { useQuery } from '@tanstack/react-query';
import { zoneSettingEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { zoneSettingKeys } from './keys';

export function getZoneSettings(zoneId: string, signal?: AbortSignal) {
  return callEndpoint(zoneSettingEndpoints.get, { params: { zone_id: zoneId }, signal });
}

/** Read from Cloudflare each time the dialog opens: someone may have changed them in the dashboard. */
export function useZoneSettingsQuery(zoneId: string) {
  return useQuery({
    queryKey: zoneSettingKeys.detail(zoneId),
    queryFn: ({ signal }) => getZoneSettings(zoneId, signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
