import { notificationChannelEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../../endpoint-route';
import type { NotificationChannelsService } from './notification-channels.service';

/** System Setting's notification channels under /api/admin/notification-channels (access: 'admin'; audited). */
export const notificationChannelsRoutes: FastifyPluginAsync<{
  channels: NotificationChannelsService;
}> = async (app, { channels }) => {
  // Channels are nobody's own: administrators manage them all (`owns` names the id checked).
  route(app, notificationChannelEndpoints.list, async () => channels.list());
  route(app, notificationChannelEndpoints.create, async (request) => {
    const created = await channels.create(request.body);
    request.auditEffects = { id: created.channel.id, url_masked: created.channel.url_masked };
    return created;
  });
  route(
    app,
    notificationChannelEndpoints.update,
    async (request) => {
      const channel = await channels.update(request.params.id, request.body);
      request.auditEffects = { name: channel.name, url_masked: channel.url_masked };
      return channel;
    },
    { owns: ['id'] },
  );
  noContentRoute(
    app,
    notificationChannelEndpoints.remove,
    async (request) => (request.auditEffects = { name: await channels.remove(request.params.id) }),
    { owns: ['id'] },
  );
  route(
    app,
    notificationChannelEndpoints.test,
    async (request) => channels.test(request.params.id, request.user.email),
    { owns: ['id'] },
  );
};
