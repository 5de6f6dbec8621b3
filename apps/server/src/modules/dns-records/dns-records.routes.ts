import { dnsRecordEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { checkedRoute, route } from '../../endpoint-route';
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

  checkedRoute(
    app,
    dnsRecordEndpoints.add,
    ({ user, params, body }) => dns.create(user.id, params.zone_id, body),
    zoneRoute,
  );

  checkedRoute(
    app,
    dnsRecordEndpoints.update,
    ({ user, params, body }) => dns.update(user.id, params.zone_id, params.record_id, body),
    recordRoute,
  );

  checkedRoute(
    app,
    dnsRecordEndpoints.remove,
    ({ user, params }) => dns.remove(user.id, params.zone_id, params.record_id),
    recordRoute,
  );
};
