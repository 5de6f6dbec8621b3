import { serverApiEndpoints, serverEndpoints, WEBHOOK_BODY_MAX } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../app-error';
import { noContentRoute, route } from '../../endpoint-route';
import type { ServersService } from './servers.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as it came, for the signed webhook's signature (servers.routes.ts keeps it). */
    rawBody?: string;
  }
}

/** Groups and servers (/api/servers...), their person's; anyone's servers for administrators to revoke. */
export const serversRoutes: FastifyPluginAsync<{ servers: ServersService }> = async (app, { servers }) => {
  route(app, serverEndpoints.groupList, async (request) => servers.groups(request.user.id));
  route(app, serverEndpoints.groupCreate, async (request) =>
    servers.createGroup(request.user.id, request.body),
  );
  route(
    app,
    serverEndpoints.groupUpdate,
    async (request) => servers.updateGroup(request.user.id, request.params.group_id, request.body),
    { owns: ['group_id'] },
  );
  noContentRoute(
    app,
    serverEndpoints.groupRemove,
    (request) => servers.removeGroup(request.user.id, request.params.group_id),
    { owns: ['group_id'] },
  );

  route(app, serverEndpoints.list, async (request) => servers.servers(request.user.id));
  route(app, serverEndpoints.hourly, async (request) =>
    servers.hourly(request.user.id, request.query.server_ids),
  );
  route(app, serverEndpoints.create, async (request) => servers.create(request.user.id, request.body));
  noContentRoute(
    app,
    serverEndpoints.revoke,
    (request) => servers.revoke(request.user.id, request.params.server_id),
    {
      owns: ['server_id'],
    },
  );

  route(
    app,
    serverEndpoints.signingSecret,
    async (request) => servers.renewSigningSecret(request.user.id, request.params.server_id),
    { owns: ['server_id'] },
  );
  route(app, serverEndpoints.reviewList, async (request) => servers.reviews(request.user.id));
  route(app, serverEndpoints.reviewApprove, async (request) =>
    servers.decide(request.user, request.body.ids, 'approved'),
  );
  route(app, serverEndpoints.reviewReject, async (request) =>
    servers.decide(request.user, request.body.ids, 'rejected'),
  );

  // Administrators see and revoke anyone's servers (a compromised host, a person who left).
  route(app, serverEndpoints.userList, async (request) => servers.serversOfUser(request.params.id), {
    owns: ['id'],
  });
  noContentRoute(
    app,
    serverEndpoints.userRevoke,
    (request) => servers.revoke(request.params.id, request.params.server_id),
    { owns: ['id', 'server_id'] },
  );

  // The server API: the server-key guard (server-key.guard.ts) set the server.
  const serverOf = (request: { reportingServer?: import('./servers.service').ServerIdentity }) => {
    if (!request.reportingServer) throw new AppError('UNAUTHORIZED', 'This route takes a server key.');
    return request.reportingServer;
  };
  route(app, serverApiEndpoints.ban, async (request, reply) =>
    reply.code(202).send(await servers.ban(serverOf(request), request.body)),
  );
  route(app, serverApiEndpoints.unban, async (request, reply) =>
    reply.code(202).send(await servers.unban(serverOf(request), request.body)),
  );
  // The signed webhook: its signature is over the body's bytes, so this scope keeps them as they came
  // (the server-key guard checks it before the body's schema).
  await app.register(async (signed) => {
    signed.removeContentTypeParser('application/json');
    signed.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_MAX },
      (request, body, done) => {
        request.rawBody = body.toString();
        try {
          done(null, request.rawBody === '' ? undefined : JSON.parse(request.rawBody));
        } catch {
          done(new AppError('BAD_REQUEST', 'The body is not valid JSON.'));
        }
      },
    );
    route(
      signed,
      serverApiEndpoints.webhook,
      async (request, reply) => {
        const { type, ...call } = request.body;
        const server = serverOf(request);
        return reply
          .code(202)
          .send(await (type === 'ban' ? servers.ban(server, call) : servers.unban(server, call)));
      },
      // Its server is the one whose signing secret signed the call (server-key.guard.ts).
      { bodyLimit: WEBHOOK_BODY_MAX, owns: ['server_id'] },
    );
  });
  route(app, serverApiEndpoints.heartbeat, async (request) =>
    servers.heartbeat(serverOf(request), request.body.version),
  );
};
