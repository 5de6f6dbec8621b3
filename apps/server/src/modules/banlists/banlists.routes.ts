import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';

/** The banlists routes under /api/cloudflare (filled in by the banlists feature). */
export const banlistsRoutes: FastifyPluginAsync<ModuleOptions> = async () => {};
