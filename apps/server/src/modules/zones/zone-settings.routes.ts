import { zoneSettingEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { ZoneSettingsService } from './zone-settings.service';

/** The zone settings dialog's calls: read every switch from Cloudflare, save the changed ones. */
export const zoneSettingsRoutes: FastifyPluginAsync<{ zoneSettings: ZoneSettingsService }> = async (
  app,
  { zoneSettings },
) => {
  route(
    app,
    zoneSettingEndpoints.get,
    async (request) => zoneSettings.get(request.user.id, request.params.zone_id),
    {
      owns: ['zone_id'],
    },
  );

  route(
    app,
    zoneSettingEndpoints.update,
    async (request) => zoneSettings.update(request.user.id, request.params.zone_id, request.body),
    { owns: ['zone_id'] },
  );
};
