/**
 * The baseline: the same Fastify the server runs on, answering the same bytes from memory (the body
 * and the server's headers: security headers, cache-control, content-type), with no auth guard, no
 * database and no plugins. A child process like the server, so both get a core of their own. The
 * parent sends `{ routes: { '/path?query': { body, headers } } }` and gets `{ port }` back.
 */
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import type { BareAnswer } from './protocol';

process.once('disconnect', () => process.exit(0));

/** Headers Node and Fastify write themselves for every answer. */
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

process.once('message', (message: { routes: Record<string, BareAnswer> }) => {
  void (async () => {
    const answers = new Map(
      Object.entries(message.routes).map(([url, answer]) => [
        url,
        {
          body: Buffer.from(answer.body),
          headers: Object.fromEntries(
            Object.entries(answer.headers).filter(([name]) => !OWN_HEADERS.has(name)),
          ),
        },
      ]),
    );
    const app = Fastify({ logger: false });
    // One wildcard route looks the answer up by the whole URL, query string included.
    app.get('/*', async (request, reply) => {
      const answer = answers.get(request.url);
      if (!answer) return reply.code(404).send({ code: 'NOT_FOUND' });
      return reply.headers(answer.headers).send(answer.body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    process.send?.({ port: (app.server.address() as AddressInfo).port });
  })();
});
