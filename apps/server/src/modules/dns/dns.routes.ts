import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';

/** The dns routes under /api/cloudflare (filled in by the dns feature). */
export const dnsRoutes: FastifyPluginAsync<ModuleOptions> = async () => {};
