/**
 * The baseline: the same Fastify the server runs on, answering the same bytes from memory, with no
 * auth guard, no database and no plugins. A child process like the server, so both get a core of
 * their own. The parent sends `{ routes: { '/path?query': body } }` and gets `{ port }` back.
 */
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';

process.once('disconnect', () => process.exit(0));

process.once('message', (message: { routes: Record<string, string> }) => {
  void (async () => {
    const bodies = new Map(Object.entries(message.routes).map(([url, body]) => [url, Buffer.from(body)]));
    const app = Fastify({ logger: false });
    // One wildcard route looks the answer up by the whole URL, query string included.
    app.get('/*', async (request, reply) => {
      const body = bodies.get(request.url);
      if (!body) return reply.code(404).send({ code: 'NOT_FOUND' });
      return reply.type('application/json; charset=utf-8').send(body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    process.send?.({ port: (app.server.address() as AddressInfo).port });
  })();
});
