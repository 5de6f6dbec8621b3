import { helpdeskEndpoints, ticketEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { TicketsService } from './tickets.service';

/** The person's tickets under /api/support/tickets, and the Helpdesk under /api/admin/tickets. */
export const ticketsRoutes: FastifyPluginAsync<{ tickets: TicketsService }> = async (app, { tickets }) => {
  route(app, ticketEndpoints.list, async (request) => tickets.list(request.user, request.query));
  route(app, ticketEndpoints.open, async (request) => tickets.open(request.user, request.body));
  // Ownership is the service's: the ticket's own person, else 404.
  route(app, ticketEndpoints.get, async (request) => tickets.get(request.user, request.params.id), {
    owns: ['id'],
  });
  route(
    app,
    ticketEndpoints.reply,
    async (request) => tickets.reply(request.user, request.params.id, request.body.message),
    { owns: ['id'] },
  );
  route(app, ticketEndpoints.close, async (request) => tickets.close(request.user, request.params.id), {
    owns: ['id'],
  });

  // Administrators (access: 'admin'; every ticket is theirs to answer, so `owns` names the id checked).
  route(app, helpdeskEndpoints.list, async (request) => tickets.queue(request.user, request.query));
  route(app, helpdeskEndpoints.assignees, async () => tickets.assignees());
  route(app, helpdeskEndpoints.get, async (request) => tickets.read(request.params.id), { owns: ['id'] });
  route(
    app,
    helpdeskEndpoints.reply,
    async (request) => tickets.answer(request.user, request.params.id, request.body.message),
    { owns: ['id'] },
  );
  route(app, helpdeskEndpoints.assign, async (request) => tickets.assign(request.params.id, request.body), {
    owns: ['id'],
  });
  route(app, helpdeskEndpoints.close, async (request) => tickets.closeAsSupport(request.params.id), {
    owns: ['id'],
  });
};
