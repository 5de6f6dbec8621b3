import { addAccountRequestSchema, type CloudflareAccount } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { accountsService } from './accounts.service';

export const accountsRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const accounts = accountsService(deps);

  app.get('/api/cloudflare/accounts', async (request): Promise<CloudflareAccount[]> =>
    accounts.list(request.user.id),
  );

  app.post('/api/cloudflare/accounts', async (request, reply): Promise<CloudflareAccount> => {
    const account = await accounts.add(request.user.id, addAccountRequestSchema.parse(request.body));
    reply.code(201);
    return account;
  });
};
