import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';

/** The zones routes under /api/cloudflare (filled in by the zones feature). */
export const zonesRoutes: FastifyPluginAsync<ModuleOptions> = async () => {};
