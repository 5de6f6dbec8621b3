import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  zoneSettingEndpoints,
  type UpdateZoneSettingsRequest,
  type ZoneSettingsState,
} from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { zoneSettingKeys } from './keys';

export function updateZoneSettings(zoneId: string, changes: UpdateZoneSettingsRequest) {
  return callEndpoint(zoneSettingEndpoints.update, { params: { zone_id: zoneId }, body: changes });
}

/** Sends only the changed switches; what Cloudflare applied is written into the zone's cached settings. */
export function useUpdateZoneSettingsMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateZoneSettingsRequest) => updateZoneSettings(zoneId, changes),
    onSuccess: ({ applied }) =>
      queryClient.setQueryData<ZoneSettingsState>(zoneSettingKeys.detail(zoneId), (current) =>
        current ? { ...current, ...applied } : current,
      ),
  });
}
