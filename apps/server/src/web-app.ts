import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from './config';
import { isApiPath } from './route-table';

const HASHED_ASSETS_DIR = 'assets';

/**
 * Serves the built web app: Vite's hashed assets cache for a year, everything else (index.html)
 * revalidates so a new release shows at once. Returns false when there is no build to serve.
 */
export async function registerWebApp(
  app: FastifyInstance,
  config: Pick<Config, 'webDistDir'>,
): Promise<boolean> {
  const root = config.webDistDir;
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn(
      { webDistDir: root },
      'No built web app found: serving the API only. Run `npm run build` first.',
    );
    return false;
  }
  await app.register(fastifyStatic, {
    root,
    cacheControl: false,
    setHeaders(res, filePath) {
      const hashed = relative(root, filePath).startsWith(HASHED_ASSETS_DIR + sep);
      res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}

/**
 * A deep link into the web app (e.g. /cloudflare/zones/abc/rules) that must load index.html: a GET
 * outside /api whose last segment is not a file name (a missing asset stays a 404).
 */
export function isWebAppRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (isApiPath(request.url)) return false;
  const path = request.url.split('?', 1)[0]!;
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  return !lastSegment.includes('.');
}
