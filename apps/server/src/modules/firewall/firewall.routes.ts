import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';

/** The firewall routes under /api/cloudflare (filled in by the firewall feature). */
export const firewallRoutes: FastifyPluginAsync<ModuleOptions> = async () => {};
