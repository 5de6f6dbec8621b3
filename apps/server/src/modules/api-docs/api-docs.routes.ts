import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import swagger from '@fastify/swagger';
import { API_DOCS_PATH, apiReferenceEndpoints } from '@guardian/contract';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { route } from '../../endpoint-route';
import { DOCS_HTML, DOCS_SCRIPT } from './page';

/**
 * The OpenAPI 3.1 document of every route registered after this (from the endpoints' Zod schemas).
 * Call before any route is registered: @fastify/swagger collects routes as they are added.
 */
export async function registerApiDocument(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Guardian API',
        version: '1',
        description:
          'Send `Authorization: Bearer <token>` (the token POST /api/login answers) on every call but ' +
          'sign-in and health. Every error answers the same body: `{ code, message, errors }`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
}

/** Swagger UI's files, served from this origin (the CSP allows no other script source). */
const swaggerUiFile = createRequire(import.meta.url).resolve;
const ASSETS: Record<string, { type: string; read: () => Promise<string | Buffer> }> = {
  'docs.js': { type: 'text/javascript; charset=utf-8', read: async () => DOCS_SCRIPT },
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    read: () => readFile(swaggerUiFile('swagger-ui-dist/swagger-ui-bundle.js')),
  },
  'swagger-ui.css': {
    type: 'text/css; charset=utf-8',
    read: () => readFile(swaggerUiFile('swagger-ui-dist/swagger-ui.css')),
  },
};

/** GET /api/openapi.json (signed-in people) and the reference page that reads it (public, no data). */
export const apiDocsRoutes: FastifyPluginAsync = async (app) => {
  route(app, apiReferenceEndpoints.document, async () => app.swagger() as never);

  const page = { schema: { hide: true }, config: { access: 'public' as const } };
  app.get(API_DOCS_PATH, page, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(DOCS_HTML),
  );

  // Read once, on first use: the bundle is 1.7 MB that most processes never serve.
  const loaded = new Map<string, Promise<string | Buffer>>();
  for (const [name, asset] of Object.entries(ASSETS)) {
    app.get(`${API_DOCS_PATH}/${name}`, page, async (_request, reply) => {
      if (!loaded.has(name)) loaded.set(name, asset.read());
      return reply.type(asset.type).send(await loaded.get(name));
    });
  }
};
