import {
  updateZoneSettingsRequestSchema,
  updateZoneSettingsResponseSchema,
  zoneSettingsStateSchema,
} from './zone-settings.schemas';
import { zoneParamsSchema } from '../zones/zones.schemas';
import { cloudflareErrors, endpointGroup } from '../shared/endpoint';

export const zoneSettingEndpoints = endpointGroup('Zone settings', {
  get: {
    method: 'GET',
    path: '/api/cloudflare/zones/:zone_id/settings',
    summary: "The zone settings dialog's switches, each read from Cloudflare (one call per setting).",
    params: zoneParamsSchema,
    responses: { 200: zoneSettingsStateSchema, ...cloudflareErrors() },
  },
  update: {
    method: 'PUT',
    path: '/api/cloudflare/zones/:zone_id/settings',
    summary:
      'Apply the changed switches at Cloudflare, one call per setting; answers which applied and which failed.',
    params: zoneParamsSchema,
    body: updateZoneSettingsRequestSchema,
    responses: { 200: updateZoneSettingsResponseSchema, ...cloudflareErrors() },
  },
});
