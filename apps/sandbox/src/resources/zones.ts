import type { FastifyInstance } from 'fastify';
import { fail, ok, timestamp } from '../envelope';
import { isId, newId } from '../ids';
import { PLAN_LIMITS, PLAN_NAMES, PLAN_PRICES } from '../plans';
import type { SandboxContext } from '../context';
import type { Account, SandboxState, Zone } from '../state';
import { accountOfZone, authenticate, requireAccount, requireZone } from './tokens';
import { matchesTextFilter, pageOf, queryValue, readDirection, readPage } from './paging';
import { isRecord } from '../is-record';

const NAME_SERVER_POOL = [
  'ada',
  'bob',
  'cruz',
  'dana',
  'elle',
  'fred',
  'gina',
  'hank',
  'iris',
  'jack',
  'kate',
  'lola',
  'max',
  'nina',
  'otto',
  'pam',
  'quinn',
  'rick',
  'sara',
  'tom',
];

/** Two name servers per zone, stable for a zone id, shaped like Cloudflare's assignments. */
export function assignNameServers(zoneId: string): string[] {
  const a = parseInt(zoneId.slice(0, 8), 16) % NAME_SERVER_POOL.length;
  const b =
    (a + 1 + (parseInt(zoneId.slice(8, 16), 16) % (NAME_SERVER_POOL.length - 1))) % NAME_SERVER_POOL.length;
  return [`${NAME_SERVER_POOL[a]}.ns.cloudflare.com`, `${NAME_SERVER_POOL[b]}.ns.cloudflare.com`];
}

/** A registrable-looking domain: labels of letters, digits and inner hyphens, an alphabetic TLD. */
export function isValidDomain(name: string): boolean {
  if (name.length > 253 || !name.includes('.')) return false;
  const labels = name.split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return false;
  return labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

export function zoneView(state: SandboxState, zone: Zone) {
  const account = state.accounts.get(zone.accountId);
  const plan = account?.plan ?? 'free';
  return {
    id: zone.id,
    name: zone.name,
    status: zone.status,
    paused: zone.paused,
    type: zone.type,
    development_mode: 0,
    name_servers: zone.nameServers,
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    vanity_name_servers: zone.vanityNameServers,
    created_on: zone.createdOn,
    modified_on: zone.modifiedOn,
    activated_on: zone.activatedOn,
    meta: {
      step: 2,
      custom_certificate_quota: plan === 'enterprise' ? 10 : plan === 'business' ? 1 : 0,
      page_rule_quota: PLAN_LIMITS[plan].pageRules,
      phishing_detected: false,
      cdn_only: false,
      dns_only: false,
      foundation_dns: false,
    },
    owner: { id: zone.accountId, type: 'organization', name: account?.name ?? '' },
    account: { id: zone.accountId, name: account?.name ?? '' },
    tenant: {},
    tenant_unit: {},
    permissions: [],
    plan: {
      id: PLAN_IDS[plan],
      name: PLAN_NAMES[plan],
      price: PLAN_PRICES[plan],
      currency: 'USD',
      frequency: plan === 'free' ? '' : 'monthly',
      is_subscribed: plan !== 'free',
      can_subscribe: false,
      legacy_id: plan,
      legacy_discount: false,
      externally_managed: false,
    },
  };
}

/** Plan ids are the same for every zone on a plan, as Cloudflare's are (0fee... is Free). */
const PLAN_IDS: Record<Account['plan'], string> = {
  free: '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  pro: 'a577b510288e82b26486fd1df47000ec',
  business: 'bf7b8af7b2bc1e2a7c3e4b6c86bb4d75',
  enterprise: '94f3b7b768b0458b56d2cac4fe5ec0f9',
};

export function createZone(
  context: SandboxContext,
  account: Account,
  name: string,
  type: Zone['type'] = 'full',
): Zone {
  const now = timestamp();
  const id = newId();
  const zone: Zone = {
    id,
    accountId: account.id,
    name,
    type,
    status: 'pending',
    paused: false,
    nameServers: assignNameServers(id),
    vanityNameServers: [],
    createdOn: now,
    modifiedOn: now,
    activatedOn: null,
  };
  context.state.zones.set(id, zone);
  scheduleActivation(context, zone);
  return zone;
}

export function scheduleActivation(context: SandboxContext, zone: Zone): void {
  const delay = context.options.zoneActivationDelayMs;
  if (delay === null || zone.status !== 'pending') return;
  context.schedule(() => activateZone(context.state, zone.id), delay);
}

export function activateZone(state: SandboxState, zoneId: string): boolean {
  const zone = state.zones.get(zoneId);
  if (!zone) return false;
  if (zone.status !== 'active') {
    const now = timestamp();
    zone.status = 'active';
    zone.activatedOn = now;
    zone.modifiedOn = now;
    state.changed();
  }
  return true;
}

/** Removes a zone and everything that hangs off it. */
export function deleteZone(state: SandboxState, zoneId: string): void {
  state.zones.delete(zoneId);
  for (const [id, record] of state.dnsRecords) if (record.zoneId === zoneId) state.dnsRecords.delete(id);
  for (const [id, rule] of state.pageRules) if (rule.zoneId === zoneId) state.pageRules.delete(id);
  for (const [id, ruleset] of state.rulesets) if (ruleset.zoneId === zoneId) state.rulesets.delete(id);
}

const ZONE_TYPES = ['full', 'partial', 'secondary', 'internal'] as const;
const ZONE_STATUSES = ['initializing', 'pending', 'active', 'moved'];
const ORDER_FIELDS: Record<string, (state: SandboxState, zone: Zone) => string> = {
  name: (_state, zone) => zone.name,
  status: (_state, zone) => zone.status,
  'account.id': (_state, zone) => zone.accountId,
  'account.name': (state, zone) => state.accounts.get(zone.accountId)?.name ?? '',
  'plan.id': (state, zone) => state.accounts.get(zone.accountId)?.plan ?? '',
};

export function registerZoneRoutes(app: FastifyInstance, context: SandboxContext): void {
  const { state } = context;

  app.get<{ Querystring: Record<string, unknown> }>('/zones', async (request) => {
    const token = authenticate(state, request);
    const query = request.query;
    const page = readPage(query, { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50, code: 1001 });
    const direction = readDirection(query, 'asc', 1001);
    const order = queryValue(query.order) ?? 'name';
    const orderBy = ORDER_FIELDS[order];
    if (!orderBy) throw fail(400, 1001, `Invalid order: ${order}`);
    const match = queryValue(query.match) ?? 'all';
    if (match !== 'all' && match !== 'any') throw fail(400, 1001, 'Invalid match: must be any or all');
    const status = queryValue(query.status);
    if (status !== undefined && !ZONE_STATUSES.includes(status))
      throw fail(400, 1001, `Invalid status: ${status}`);
    const name = queryValue(query.name);
    const accountId = queryValue(query['account.id']);
    const accountName = queryValue(query['account.name']);
    const typeText = queryValue(query.type);
    const types = typeText === undefined ? ['full', 'partial', 'secondary'] : typeText.split(',');

    const filters: ((zone: Zone) => boolean)[] = [];
    if (name !== undefined) filters.push((zone) => matchesTextFilter(zone.name, name));
    if (status !== undefined) filters.push((zone) => zone.status === status);
    if (accountId !== undefined) filters.push((zone) => zone.accountId === accountId);
    if (accountName !== undefined)
      filters.push((zone) => matchesTextFilter(state.accounts.get(zone.accountId)?.name ?? '', accountName));

    const zones = [...state.zones.values()]
      .filter((zone) => token.accountIds.includes(zone.accountId) && types.includes(zone.type))
      .filter((zone) =>
        filters.length === 0
          ? true
          : match === 'all'
            ? filters.every((f) => f(zone))
            : filters.some((f) => f(zone)),
      )
      .sort((a, b) => orderBy(state, a).localeCompare(orderBy(state, b)) * (direction === 'asc' ? 1 : -1));
    const { result, resultInfo } = pageOf(zones, page);
    return ok(
      result.map((zone) => zoneView(state, zone)),
      resultInfo,
    );
  });

  app.post<{ Body: unknown }>('/zones', async (request) => {
    const token = authenticate(state, request);
    const body = request.body;
    if (!isRecord(body)) throw fail(400, 1001, 'Invalid request body: expected a JSON object');
    const accountId = isRecord(body.account) ? body.account.id : undefined;
    if (typeof accountId !== 'string' || !isId(accountId))
      throw fail(400, 1001, 'account.id must be a valid account identifier');
    const account = requireAccount(state, token, accountId, request);
    if (typeof body.name !== 'string' || body.name === '') throw fail(400, 1001, 'name is required');
    const type = body.type ?? 'full';
    if (typeof type !== 'string' || !(ZONE_TYPES as readonly string[]).includes(type)) {
      throw fail(400, 1001, `Invalid zone type: ${String(type)}`);
    }
    const name = body.name.trim().toLowerCase().replace(/\.$/, '');
    if (!isValidDomain(name)) throw fail(400, 1097, `${body.name} is not a valid domain name.`);
    if (state.zonesOf(account.id).some((zone) => zone.name === name)) {
      throw fail(400, 1061, `${name} already exists`);
    }
    const zone = createZone(context, account, name, type as Zone['type']);
    state.changed();
    return ok(zoneView(state, zone));
  });

  app.get<{ Params: { zone_id: string } }>('/zones/:zone_id', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    return ok(zoneView(state, zone));
  });

  app.patch<{ Params: { zone_id: string }; Body: unknown }>('/zones/:zone_id', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    const body = request.body;
    if (!isRecord(body)) throw fail(400, 1001, 'Invalid request body: expected a JSON object');
    // Cloudflare applies one change per request; validate all first so a bad field changes nothing.
    if (body.paused !== undefined && typeof body.paused !== 'boolean')
      throw fail(400, 1001, 'paused must be a boolean');
    if (body.type !== undefined && !(ZONE_TYPES as readonly unknown[]).includes(body.type)) {
      throw fail(400, 1001, `Invalid zone type: ${String(body.type)}`);
    }
    const vanity = body.vanity_name_servers;
    if (vanity !== undefined) {
      if (!Array.isArray(vanity) || !vanity.every((ns) => typeof ns === 'string' && isValidDomain(ns))) {
        throw fail(400, 1001, 'vanity_name_servers must be a list of host names');
      }
      const plan = accountOfZone(state, zone).plan;
      if (plan !== 'business' && plan !== 'enterprise') {
        throw fail(400, 1001, 'Vanity name servers are only available on Business and Enterprise plans');
      }
    }
    if (typeof body.paused === 'boolean') zone.paused = body.paused;
    if (typeof body.type === 'string') zone.type = body.type as Zone['type'];
    if (Array.isArray(vanity)) zone.vanityNameServers = vanity as string[];
    zone.modifiedOn = timestamp();
    state.changed();
    return ok(zoneView(state, zone));
  });

  app.delete<{ Params: { zone_id: string } }>('/zones/:zone_id', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    deleteZone(state, zone.id);
    state.changed();
    return ok({ id: zone.id });
  });
}
