import {
  dnsRecordInputSchema,
  dnsRecordParamsSchema,
  zoneParamsSchema,
  type DnsRecord,
} from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { DnsService } from './dns.service';

/**
 * The DNS records screen's calls (spec section 7). The zone is checked against the user's accounts;
 * the record is then looked up inside that zone at Cloudflare, so it cannot belong to anyone else.
 */
export const dnsRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const dns = new DnsService(deps);
  const zoneRoute = { config: { owns: ['zone_id'] } };
  const recordRoute = { config: { owns: ['zone_id', 'record_id'] } };

  app.get('/api/cloudflare/zones/:zone_id/dns', zoneRoute, async (request): Promise<DnsRecord[]> => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    return dns.list(request.user.id, zone_id);
  });

  app.post('/api/cloudflare/zones/:zone_id/dns', zoneRoute, async (request, reply): Promise<DnsRecord> => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    const record = await dns.create(request.user.id, zone_id, dnsRecordInputSchema.parse(request.body));
    reply.code(201);
    return record;
  });

  app.put(
    '/api/cloudflare/zones/:zone_id/dns/:record_id',
    recordRoute,
    async (request): Promise<DnsRecord> => {
      const { zone_id, record_id } = dnsRecordParamsSchema.parse(request.params);
      return dns.update(request.user.id, zone_id, record_id, dnsRecordInputSchema.parse(request.body));
    },
  );

  app.delete('/api/cloudflare/zones/:zone_id/dns/:record_id', recordRoute, async (request, reply) => {
    const { zone_id, record_id } = dnsRecordParamsSchema.parse(request.params);
    await dns.remove(request.user.id, zone_id, record_id);
    return reply.code(204).send();
  });
};
