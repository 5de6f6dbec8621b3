import { dnsRecordEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { sendChecked } from '../../cloudflare/create-once';
import { route } from '../../endpoint-route';
import type { DnsRecordsService } from './dns-records.service';

/**
 * The DNS records screen's calls (spec section 7). The zone is checked against the user's accounts;
 * the record is then looked up inside that zone at Cloudflare, so it cannot belong to anyone else.
 */
export const dnsRecordsRoutes: FastifyPluginAsync<{ dns: DnsRecordsService }> = async (app, { dns }) => {
  const zoneRoute = { owns: ['zone_id'] } as const;
  const recordRoute = { owns: ['zone_id', 'record_id'] } as const;

  route(
    app,
    dnsRecordEndpoints.list,
    async (request) => dns.list(request.user.id, request.params.zone_id),
    zoneRoute,
  );

  route(
    app,
    dnsRecordEndpoints.add,
    async (request, reply) => {
      return sendChecked(reply, 201, await dns.create(request.user.id, request.params.zone_id, request.body));
    },
    zoneRoute,
  );

  route(
    app,
    dnsRecordEndpoints.update,
    async (request, reply) => {
      const { zone_id, record_id } = request.params;
      return sendChecked(reply, 200, await dns.update(request.user.id, zone_id, record_id, request.body));
    },
    recordRoute,
  );

  route(
    app,
    dnsRecordEndpoints.remove,
    async (request, reply) => {
      const { zone_id, record_id } = request.params;
      return sendChecked(reply, 204, await dns.remove(request.user.id, zone_id, record_id));
    },
    recordRoute,
  );
};
