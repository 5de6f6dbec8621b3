import { apiKeyEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../../endpoint-route';
import type { ApiKeysService } from './api-keys.service';

/** The person's API keys (/api/me/api-keys): with a session only, never with a key; anyone's for administrators. */
export const apiKeysRoutes: FastifyPluginAsync<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  route(app, apiKeyEndpoints.list, async (request) => apiKeys.list(request.user.id));

  route(app, apiKeyEndpoints.create, async (request) => apiKeys.create(request.user.id, request.body));

  noContentRoute(
    app,
    apiKeyEndpoints.revoke,
    (request) => apiKeys.revoke(request.user.id, request.params.id),
    { owns: ['id'] },
  );

  // Administrators see and revoke anyone's keys (a lost laptop, a person who left).
  route(app, apiKeyEndpoints.userList, async (request) => apiKeys.listOfUser(request.params.id), {
    owns: ['id'],
  });
  noContentRoute(
    app,
    apiKeyEndpoints.userRevoke,
    (request) => apiKeys.revoke(request.params.id, request.params.key_id),
    { owns: ['id', 'key_id'] },
  );
};
