import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';

/** The pagerules routes under /api/cloudflare (filled in by the pagerules feature). */
export const pagerulesRoutes: FastifyPluginAsync<ModuleOptions> = async () => {};
