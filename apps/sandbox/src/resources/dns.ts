import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CloudflareError, fail, ok, timestamp, type ResponseInfo } from '../envelope';
import { newId } from '../ids';
import { isIpv4, isIpv6 } from '@guardian/contract';
import { PLAN_LIMITS } from '../plans';
import type { SandboxContext } from '../context';
import type { DnsRecord, SandboxState, Zone } from '../state';
import { accountOfZone, authenticate, requireZone } from './tokens';
import { pageOf, queryValue, readDirection, readPage } from './paging';
import { isRecord } from '../is-record';

/** The record types the console uses; Cloudflare has more (CAA, PTR, ...), the sandbox refuses them. */
export const DNS_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SRV'] as const;
const PROXIABLE = new Set(['A', 'AAAA', 'CNAME']);

/** Cloudflare wraps record validation failures in 1004 with the reason in `error_chain`. */
function invalid(code: number, message: string): CloudflareError {
  const chain: ResponseInfo[] = [{ code, message }];
  return fail(400, 1004, 'DNS Validation Error', chain);
}

const notFound = (): CloudflareError => fail(404, 81044, 'Record does not exist.');

const HOST_LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A host name, as CNAME, NS, MX and SRV targets must be: `203.0.113.10` is an address, never a name. */
export function isHostname(value: string): boolean {
  const host = value.toLowerCase().replace(/\.$/, '');
  if (host.length === 0 || host.length > 253 || isIpv4(host)) return false;
  return host.split('.').every((label) => HOST_LABEL.test(label));
}

/** `@` and relative names become full names inside the zone, as Cloudflare stores them. */
function qualifiedName(zone: Zone, name: string): string {
  const lower = name.trim().toLowerCase().replace(/\.$/, '');
  if (lower === '@' || lower === '') return zone.name;
  if (lower === zone.name || lower.endsWith(`.${zone.name}`)) return lower;
  return `${lower}.${zone.name}`;
}

function isValidRecordName(name: string): boolean {
  if (name.length > 255) return false;
  const labels = name.split('.');
  return labels.every((label, index) => (index === 0 && label === '*') || HOST_LABEL.test(label));
}

function readPort(data: Record<string, unknown>, field: string): number {
  const value = data[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535) {
    throw invalid(9101, `SRV record data.${field} must be an integer between 0 and 65535.`);
  }
  return value;
}

/**
 * Validates a full record body (POST and PUT, or PATCH merged onto the stored record) and returns the
 * fields to store. Throws Cloudflare's validation errors.
 */
function validateRecord(zone: Zone, minTtl: number, body: Record<string, unknown>) {
  const type = body.type;
  if (typeof type !== 'string') throw invalid(9003, "A record 'type' is required.");
  if (!(DNS_TYPES as readonly string[]).includes(type)) {
    throw invalid(9003, `The sandbox does not emulate DNS records of type '${type}'.`);
  }
  if (typeof body.name !== 'string' || body.name.trim() === '') throw invalid(9000, 'DNS name is invalid.');
  const name = qualifiedName(zone, body.name);
  if (!isValidRecordName(name)) throw invalid(9000, 'DNS name is invalid.');

  const ttl = body.ttl ?? 1;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || (ttl !== 1 && (ttl < minTtl || ttl > 86400))) {
    throw invalid(9021, `Invalid TTL. Must be between ${minTtl} and 86400 seconds, or 1 for Automatic.`);
  }
  const proxied = body.proxied ?? false;
  if (typeof proxied !== 'boolean') throw invalid(9004, 'proxied must be a boolean.');
  if (proxied && !PROXIABLE.has(type)) throw invalid(9004, 'This record type cannot be proxied.');
  const comment = body.comment ?? '';
  if (typeof comment !== 'string' || comment.length > 100) {
    throw invalid(9012, 'Comment must be a string of at most 100 characters.');
  }
  const tags = body.tags ?? [];
  if (
    !Array.isArray(tags) ||
    !tags.every((tag) => typeof tag === 'string' && /^[A-Za-z0-9_-]+:.*$/.test(tag))
  ) {
    throw invalid(9013, 'Tags must be strings of the form name:value.');
  }

  let content = typeof body.content === 'string' ? body.content.trim() : '';
  let priority: number | undefined;
  let data: Record<string, unknown> | undefined;
  switch (type) {
    case 'A':
      if (!isIpv4(content)) throw invalid(9005, 'Content for A record must be a valid IPv4 address.');
      break;
    case 'AAAA':
      if (!isIpv6(content)) throw invalid(9006, 'Content for AAAA record must be a valid IPv6 address.');
      content = content.toLowerCase();
      break;
    case 'CNAME':
      if (!isHostname(content)) throw invalid(9007, 'Content for CNAME record is invalid.');
      content = content.toLowerCase().replace(/\.$/, '');
      if (content === name) throw invalid(9007, 'A CNAME record cannot point to itself.');
      break;
    case 'NS':
      if (!isHostname(content)) throw invalid(9008, 'Content for NS record is invalid.');
      content = content.toLowerCase().replace(/\.$/, '');
      break;
    case 'MX': {
      if (!isHostname(content)) throw invalid(9009, 'Content for MX record must be a valid hostname.');
      content = content.toLowerCase().replace(/\.$/, '');
      const value = body.priority;
      if (value === undefined || value === null) throw invalid(9100, 'Priority is required for MX records.');
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535) {
        throw invalid(9100, 'Priority must be an integer between 0 and 65535.');
      }
      priority = value;
      break;
    }
    case 'TXT':
      if (typeof body.content !== 'string' || body.content.length === 0 || body.content.length > 2048) {
        throw invalid(9011, 'Content for TXT record must be between 1 and 2048 characters.');
      }
      content = body.content;
      break;
    case 'SRV': {
      if (!isRecord(body.data))
        throw invalid(9101, 'SRV records need data {priority, weight, port, target}.');
      if (!/^_[a-z0-9-]+\._(tcp|udp|tls)\./.test(name)) {
        throw invalid(9000, 'SRV record names must look like _service._proto.name.');
      }
      const target = body.data.target;
      if (typeof target !== 'string' || (target !== '.' && !isHostname(target))) {
        throw invalid(9101, 'SRV record data.target must be a valid hostname.');
      }
      const srv = {
        priority: readPort(body.data, 'priority'),
        weight: readPort(body.data, 'weight'),
        port: readPort(body.data, 'port'),
        target: target.toLowerCase().replace(/\.$/, '') || '.',
      };
      data = srv;
      priority = srv.priority;
      content = `${srv.weight} ${srv.port} ${srv.target}`;
      break;
    }
  }
  // Proxied records always have automatic TTL on Cloudflare.
  return {
    type,
    name,
    content,
    ttl: proxied ? 1 : ttl,
    proxied,
    priority,
    data,
    comment,
    tags: tags as string[],
  };
}

type RecordFields = ReturnType<typeof validateRecord>;

/** Cloudflare's duplicate and CNAME-exclusivity rules for records of one name. */
function checkConflicts(state: SandboxState, zone: Zone, fields: RecordFields, selfId?: string): void {
  for (const other of state.dnsRecords.values()) {
    if (other.zoneId !== zone.id || other.id === selfId || other.name !== fields.name) continue;
    if (other.type === fields.type && other.content.toLowerCase() === fields.content.toLowerCase()) {
      throw fail(400, 81057, 'Record already exists.');
    }
    const addressLike = (type: string) => PROXIABLE.has(type);
    if (fields.type === 'CNAME' || other.type === 'CNAME') {
      if (addressLike(fields.type) && addressLike(other.type)) {
        throw fail(400, 81053, 'An A, AAAA, or CNAME record with that host already exists.');
      }
      throw fail(400, 81054, 'A CNAME record with that host already exists.');
    }
  }
}

export function dnsRecordView(record: DnsRecord) {
  const view: Record<string, unknown> = {
    id: record.id,
    name: record.name,
    type: record.type,
    content: record.content,
    proxiable: PROXIABLE.has(record.type),
    proxied: record.proxied,
    ttl: record.ttl,
    settings: {},
    meta: {},
    comment: record.comment,
    tags: record.tags,
    // The OpenAPI response requires `data`; types without structured data carry null.
    data: record.data ?? null,
    created_on: record.createdOn,
    modified_on: record.modifiedOn,
  };
  if (record.priority !== undefined) view.priority = record.priority;
  if (record.commentModifiedOn) view.comment_modified_on = record.commentModifiedOn;
  if (record.tagsModifiedOn) view.tags_modified_on = record.tagsModifiedOn;
  return view;
}

function store(record: DnsRecord, fields: RecordFields, now: string): void {
  if (fields.comment !== record.comment) record.commentModifiedOn = fields.comment ? now : undefined;
  if (fields.tags.join('\n') !== record.tags.join('\n'))
    record.tagsModifiedOn = fields.tags.length ? now : undefined;
  record.type = fields.type;
  record.name = fields.name;
  record.content = fields.content;
  record.ttl = fields.ttl;
  record.proxied = fields.proxied;
  record.priority = fields.priority;
  record.data = fields.data;
  record.comment = fields.comment;
  record.tags = fields.tags;
  record.modifiedOn = now;
}

/** The stored record's fields as a request body, so PATCH can merge onto it. */
function bodyOf(record: DnsRecord): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: record.type,
    name: record.name,
    content: record.content,
    ttl: record.ttl,
    proxied: record.proxied,
    comment: record.comment,
    tags: record.tags,
  };
  if (record.priority !== undefined) body.priority = record.priority;
  if (record.data) body.data = record.data;
  return body;
}

const ORDER: Record<string, (record: DnsRecord) => string | number> = {
  type: (record) => record.type,
  name: (record) => record.name,
  content: (record) => record.content,
  ttl: (record) => record.ttl,
  proxied: (record) => (record.proxied ? 1 : 0),
};

/** `name`, `name.exact|contains|startswith|endswith` and the same for content and comment. */
function textFilters(query: Record<string, unknown>, field: string, read: (r: DnsRecord) => string) {
  const filters: ((record: DnsRecord) => boolean)[] = [];
  const variants: Record<string, (value: string, needle: string) => boolean> = {
    '': (value, needle) => value === needle,
    '.exact': (value, needle) => value === needle,
    '.contains': (value, needle) => value.includes(needle),
    '.startswith': (value, needle) => value.startsWith(needle),
    '.endswith': (value, needle) => value.endsWith(needle),
  };
  for (const [suffix, test] of Object.entries(variants)) {
    const needle = queryValue(query[`${field}${suffix}`]);
    if (needle !== undefined)
      filters.push((record) => test(read(record).toLowerCase(), needle.toLowerCase()));
  }
  return filters;
}

export function registerDnsRoutes(app: FastifyInstance, { state }: SandboxContext): void {
  const minTtl = (zone: Zone) => PLAN_LIMITS[accountOfZone(state, zone).plan].minTtl;

  const recordOf = (zone: Zone, recordId: string): DnsRecord => {
    const record = state.dnsRecords.get(recordId);
    if (!record || record.zoneId !== zone.id) throw notFound();
    return record;
  };

  app.get<{ Params: { zone_id: string }; Querystring: Record<string, unknown> }>(
    '/zones/:zone_id/dns_records',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const query = request.query;
      const page = readPage(query, { defaultPerPage: 100, minPerPage: 1, maxPerPage: 5_000_000, code: 1004 });
      const direction = readDirection(query, 'asc', 1004);
      const orderField = queryValue(query.order) ?? 'type';
      const order = ORDER[orderField];
      if (!order) throw fail(400, 1004, `Invalid order: ${orderField}`);
      const match = queryValue(query.match) ?? 'all';

      const filters = [
        ...textFilters(query, 'name', (record) => record.name),
        ...textFilters(query, 'content', (record) => record.content),
        ...textFilters(query, 'comment', (record) => record.comment),
      ];
      const type = queryValue(query.type);
      if (type !== undefined) filters.push((record) => record.type === type);
      const proxied = queryValue(query.proxied);
      if (proxied !== undefined) filters.push((record) => String(record.proxied) === proxied);
      const search = queryValue(query.search)?.toLowerCase();
      if (search !== undefined) {
        filters.push((record) =>
          [record.name, record.content, record.comment].some((text) => text.toLowerCase().includes(search)),
        );
      }
      const sign = direction === 'asc' ? 1 : -1;
      const records = [...state.dnsRecords.values()]
        .filter((record) => record.zoneId === zone.id)
        .filter((record) =>
          filters.length === 0
            ? true
            : match === 'any'
              ? filters.some((f) => f(record))
              : filters.every((f) => f(record)),
        )
        .sort((a, b) => {
          const x = order(a);
          const y = order(b);
          return (x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0) * sign;
        });
      const { result, resultInfo } = pageOf(records, page);
      return ok(result.map(dnsRecordView), resultInfo);
    },
  );

  app.post<{ Params: { zone_id: string }; Body: unknown }>('/zones/:zone_id/dns_records', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    if (!isRecord(request.body)) throw invalid(9207, 'Request body must be a JSON object.');
    const fields = validateRecord(zone, minTtl(zone), request.body);
    checkConflicts(state, zone, fields);
    const now = timestamp();
    const record: DnsRecord = {
      id: newId(),
      zoneId: zone.id,
      ...fields,
      createdOn: now,
      modifiedOn: now,
      comment: '',
      tags: [],
    };
    store(record, fields, now);
    state.dnsRecords.set(record.id, record);
    state.changed();
    return ok(dnsRecordView(record));
  });

  app.get<{ Params: { zone_id: string; dns_record_id: string } }>(
    '/zones/:zone_id/dns_records/:dns_record_id',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      return ok(dnsRecordView(recordOf(zone, request.params.dns_record_id)));
    },
  );

  type RecordParams = { zone_id: string; dns_record_id: string };
  const update =
    (merge: boolean) => async (request: FastifyRequest<{ Params: RecordParams; Body: unknown }>) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const record = recordOf(zone, request.params.dns_record_id);
      if (!isRecord(request.body)) throw invalid(9207, 'Request body must be a JSON object.');
      const body = merge ? { ...bodyOf(record), ...request.body } : request.body;
      // Changing a record's type in place reached end of life on 2026-06-30: delete and create instead.
      if (body.type !== undefined && body.type !== record.type) {
        throw invalid(
          9039,
          'Changing the type of an existing DNS record is no longer supported. Delete the record and create a new one.',
        );
      }
      const fields = validateRecord(zone, minTtl(zone), { ...body, type: record.type });
      checkConflicts(state, zone, fields, record.id);
      store(record, fields, timestamp());
      state.changed();
      return ok(dnsRecordView(record));
    };

  app.put<{ Params: { zone_id: string; dns_record_id: string }; Body: unknown }>(
    '/zones/:zone_id/dns_records/:dns_record_id',
    update(false),
  );
  app.patch<{ Params: { zone_id: string; dns_record_id: string }; Body: unknown }>(
    '/zones/:zone_id/dns_records/:dns_record_id',
    update(true),
  );

  app.delete<{ Params: { zone_id: string; dns_record_id: string } }>(
    '/zones/:zone_id/dns_records/:dns_record_id',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const record = recordOf(zone, request.params.dns_record_id);
      state.dnsRecords.delete(record.id);
      state.changed();
      return ok({ id: record.id });
    },
  );
}
