import { systemSettingEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { Mailer } from './mailer';
import type { SystemSettings } from './system-settings.service';

/** System Setting under /api/admin/settings (access: 'admin'; changes audited by the trail). */
export const systemSettingsRoutes: FastifyPluginAsync<{ settings: SystemSettings; mailer: Mailer }> = async (
  app,
  { settings, mailer },
) => {
  route(app, systemSettingEndpoints.get, async () => settings.view());
  route(app, systemSettingEndpoints.update, async (request) => settings.update(request.body));
  route(app, systemSettingEndpoints.testEmail, async (request) => {
    const to = request.body?.to ?? request.user.email;
    const response = await mailer.send({
      to,
      subject: 'Guardian test e-mail',
      text: `This is a test e-mail from Guardian, sent by ${request.user.email} from System Setting.\n\nOutgoing e-mail works.`,
    });
    return { sent_to: to, server_response: response };
  });
};
