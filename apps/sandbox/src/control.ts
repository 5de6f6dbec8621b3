import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { timestamp } from './envelope';
import { isId, newId } from './ids';
import type { CallFilter, CallLog, CallRecord } from './call-log';
import type { SandboxContext } from './context';
import type { Fault, FaultInjector, FaultSpec } from './faults';
import { validateFault } from './faults';
import type { RateLimiter } from './rate-limit';
import { accountView } from './resources/accounts';
import { bulkOperationView } from './resources/bulk-operations';
import { dnsRecordView } from './resources/dns';
import { createList, listItemView, listView, parseItem, upsertItems } from './resources/lists';
import { pageRuleView } from './resources/pagerules';
import { entrypointOf, ruleView, rulesetView } from './resources/rulesets';
import { botManagementView, ZONE_SETTINGS, zoneSettingView } from './resources/zone-settings';
import { activateZone, createZone, isValidDomain, zoneView } from './resources/zones';
import type { ListKind, Plan, TokenKind, TokenStatus } from './state';
import { isRecord } from './is-record';
import type { SecurityEventInput } from './analytics/added-events';

const PLANS: readonly Plan[] = ['free', 'pro', 'business', 'enterprise'];
const TOKEN_STATUSES: readonly TokenStatus[] = ['active', 'disabled', 'expired'];

export interface AccountInput {
  id?: string;
  name: string;
  plan: Plan;
}

export interface TokenInput {
  /** The bearer string clients send. */
  value: string;
  accountIds: string[];
  status?: TokenStatus;
  /** `user` tokens verify at /user/tokens/verify, `account` tokens at /accounts/{id}/tokens/verify. */
  kind?: TokenKind;
  id?: string;
  /** When an active token stops working (ISO 8601): verify answers it, and `expired` once it has passed. */
  expiresOn?: string;
}

export interface TokenInfo {
  id: string;
  value: string;
  accountIds: string[];
  status: TokenStatus;
  kind: TokenKind;
}

export type AccountView = ReturnType<typeof accountView>;
export type ZoneView = ReturnType<typeof zoneView>;
export type ListView = ReturnType<typeof listView>;
export type ListItemView = ReturnType<typeof listItemView>;
export type DnsRecordView = ReturnType<typeof dnsRecordView>;
export type RuleView = ReturnType<typeof ruleView>;
export type RulesetView = ReturnType<typeof rulesetView>;
export type PageRuleView = ReturnType<typeof pageRuleView>;
export type BulkOperationView = ReturnType<typeof bulkOperationView>;
/** A zone's emulated settings: each zone setting's value by id, and its Bot Management configuration. */
export interface ZoneSettingsView {
  settings: Record<string, unknown>;
  bot_management: ReturnType<typeof botManagementView>;
}

export interface SandboxSnapshot {
  accounts: AccountView[];
  tokens: TokenInfo[];
  zones: ZoneView[];
  /** Lists without their items (see `getListItems`), with `num_items`. */
  lists: (ListView & { account_id: string })[];
  dnsRecords: number;
  customRules: number;
  pageRules: number;
}

/** Drives the sandbox from tests, the demo and benchmarks: seeding, faults, call counts, inspection. */
export interface SandboxControl {
  addAccount(input: AccountInput): AccountView;
  addToken(input: TokenInput): TokenInfo;
  setTokenStatus(value: string, status: TokenStatus): void;
  /** Deletes a token, as revoking or rolling it at Cloudflare does: every call with it is refused (401). */
  removeToken(value: string): void;
  /** Creates a list directly (no plan quota), e.g. to seed a benchmark. */
  addList(accountId: string, input: { name: string; kind: ListKind; description?: string }): ListView;
  /** Adds or updates items at once, bypassing the API, its bulk operations and quotas. Returns num_items. */
  seedListItems(accountId: string, listId: string, items: Record<string, unknown>[]): number;
  /** Creates a zone directly; `active` skips the pending step. */
  addZone(accountId: string, name: string, options?: { status?: 'pending' | 'active' }): ZoneView;
  activateZone(zoneId: string): void;
  injectFault(spec: FaultSpec): Fault;
  removeFault(id: string): void;
  clearFaults(): void;
  faults(): Fault[];
  callLog(filter?: CallFilter): CallRecord[];
  callCount(filter?: CallFilter): number;
  resetCalls(): void;
  resetRateLimits(): void;
  /** Resolves when every queued list bulk operation has finished. */
  settle(): Promise<void>;
  getAccounts(): AccountView[];
  getLists(accountId: string): ListView[];
  getListItems(accountId: string, listId: string): ListItemView[];
  getBulkOperation(operationId: string): BulkOperationView | null;
  getZones(accountId?: string): ZoneView[];
  getDnsRecords(zoneId: string): DnsRecordView[];
  /** The zone's WAF custom rules, in order (empty when it has no entrypoint ruleset). */
  getRules(zoneId: string): RuleView[];
  getRuleset(zoneId: string): RulesetView | null;
  getPageRules(zoneId: string): PageRuleView[];
  /** The zone's settings as Cloudflare would answer them (null for an unknown zone). */
  getZoneSettings(zoneId: string): ZoneSettingsView | null;
  /**
   * Adds security events (at most 1,000 entries a call; the newest 10,000 are kept): every GraphQL
   * Analytics query counts them at once. Returns how many were added; one bad entry adds none.
   */
  addSecurityEvents(events: SecurityEventInput[]): number;
  snapshot(): SandboxSnapshot;
  /** Saves now to `file` and keeps saving there after each change. */
  persistTo(file: string): Promise<void>;
  /** Forgets every account, token, zone, list, rule, fault and call. */
  reset(): void;
}

export interface ControlDeps {
  context: SandboxContext;
  faults: FaultInjector;
  calls: CallLog;
  rateLimiter: RateLimiter | null;
  graphqlRateLimiter: RateLimiter | null;
  persistTo(file: string): Promise<void>;
}

export class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export function createControl({
  context,
  faults,
  calls,
  rateLimiter,
  graphqlRateLimiter,
  persistTo,
}: ControlDeps): SandboxControl {
  const { state } = context;

  const accountOf = (accountId: string) => {
    const account = state.accounts.get(accountId);
    if (!account) throw new ControlError(`No account ${accountId}`, 404);
    return account;
  };
  const listOf = (accountId: string, listId: string) => {
    const list = state.lists.get(listId);
    if (!list || list.accountId !== accountId)
      throw new ControlError(`No list ${listId} in account ${accountId}`, 404);
    return list;
  };
  const tokenInfo = ({ id, value, accountIds, status, kind }: TokenInfo): TokenInfo => ({
    id,
    value,
    accountIds: [...accountIds],
    status,
    kind,
  });

  const control: SandboxControl = {
    addAccount({ id = newId(), name, plan }) {
      if (!isId(id)) throw new ControlError('An account id is 32 lower-case hex characters');
      if (typeof name !== 'string' || name === '') throw new ControlError('An account needs a name');
      if (!PLANS.includes(plan)) throw new ControlError(`plan must be one of ${PLANS.join(', ')}`);
      if (state.accounts.has(id)) throw new ControlError(`Account ${id} already exists`);
      const account = { id, name, plan, createdOn: timestamp() };
      state.accounts.set(id, account);
      state.changed();
      return accountView(account);
    },

    addToken({ value, accountIds, status = 'active', kind = 'user', id = newId(), expiresOn }) {
      if (typeof value !== 'string' || !/^\S+$/.test(value))
        throw new ControlError('A token value is a non-empty string without spaces');
      if (!Array.isArray(accountIds)) throw new ControlError('accountIds must be a list of account ids');
      for (const accountId of accountIds) accountOf(accountId);
      if (!TOKEN_STATUSES.includes(status))
        throw new ControlError(`status must be one of ${TOKEN_STATUSES.join(', ')}`);
      if (kind !== 'user' && kind !== 'account') throw new ControlError('kind must be user or account');
      if (kind === 'account' && accountIds.length !== 1)
        throw new ControlError('An account token belongs to exactly one account');
      if (expiresOn !== undefined && Number.isNaN(Date.parse(expiresOn)))
        throw new ControlError('expiresOn must be an ISO 8601 date');
      const token = { id, value, accountIds: [...accountIds], status, kind };
      state.tokens.set(
        value,
        status === 'expired'
          ? { ...token, expiresOn: timestamp(new Date(Date.now() - 1000)) }
          : expiresOn !== undefined
            ? { ...token, expiresOn: timestamp(new Date(expiresOn)) }
            : token,
      );
      state.changed();
      return tokenInfo(token);
    },

    removeToken(value) {
      if (!state.tokens.delete(value)) throw new ControlError('No such token', 404);
      state.changed();
    },

    setTokenStatus(value, status) {
      const token = state.tokens.get(value);
      if (!token) throw new ControlError('No such token', 404);
      if (!TOKEN_STATUSES.includes(status))
        throw new ControlError(`status must be one of ${TOKEN_STATUSES.join(', ')}`);
      token.status = status;
      if (status === 'expired') token.expiresOn = timestamp(new Date(Date.now() - 1000));
      else delete token.expiresOn;
      state.changed();
    },

    addList(accountId, input) {
      accountOf(accountId);
      if (!/^[a-z0-9_]{1,50}$/.test(input.name))
        throw new ControlError('A list name matches ^[a-z0-9_]+$, at most 50 characters');
      if (!['ip', 'redirect', 'hostname', 'asn'].includes(input.kind))
        throw new ControlError('Unknown list kind');
      if (state.listsOf(accountId).some((list) => list.name === input.name)) {
        throw new ControlError(`A list named ${input.name} already exists`);
      }
      const list = createList(state, accountId, input);
      state.changed();
      return listView(state, list);
    },

    seedListItems(accountId, listId, items) {
      const list = listOf(accountId, listId);
      const parsed = items.map((item, index) => {
        const result = parseItem(list.kind, item);
        if (typeof result === 'string') throw new ControlError(`item ${index}: ${result}`);
        return result;
      });
      upsertItems(list, parsed, timestamp().replace(/\.\d+Z$/, 'Z'));
      state.changed();
      return list.items.size;
    },

    addZone(accountId, name, options = {}) {
      const account = accountOf(accountId);
      const lower = name.toLowerCase();
      if (!isValidDomain(lower)) throw new ControlError(`${name} is not a valid domain name`);
      if (state.zonesOf(accountId).some((zone) => zone.name === lower))
        throw new ControlError(`${lower} already exists`);
      const zone = createZone(context, account, lower);
      if (options.status === 'active') activateZone(state, zone.id);
      state.changed();
      return zoneView(state, zone);
    },

    activateZone(zoneId) {
      if (!activateZone(state, zoneId)) throw new ControlError(`No zone ${zoneId}`, 404);
    },

    injectFault(spec) {
      const problem = validateFault(spec);
      if (problem) throw new ControlError(problem);
      return faults.add(spec);
    },
    removeFault: (id) => {
      faults.remove(id);
    },
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),

    callLog: (filter) => calls.list(filter),
    callCount: (filter) => calls.count(filter),
    resetCalls: () => calls.reset(),
    resetRateLimits: () => {
      rateLimiter?.reset();
      graphqlRateLimiter?.reset();
    },
    settle: () => context.operations.settle(),

    getAccounts: () => [...state.accounts.values()].map(accountView),
    getLists: (accountId) => state.listsOf(accountId).map((list) => listView(state, list)),
    getListItems: (accountId, listId) => listOf(accountId, listId).items.ordered().map(listItemView),
    getBulkOperation(operationId) {
      const operation = state.bulkOperations.get(operationId);
      return operation ? bulkOperationView(operation) : null;
    },
    getZones: (accountId) =>
      [...state.zones.values()]
        .filter((zone) => accountId === undefined || zone.accountId === accountId)
        .map((zone) => zoneView(state, zone)),
    getDnsRecords: (zoneId) =>
      [...state.dnsRecords.values()].filter((record) => record.zoneId === zoneId).map(dnsRecordView),
    getRules: (zoneId) => entrypointOf(state, zoneId)?.rules.map(ruleView) ?? [],
    getRuleset(zoneId) {
      const ruleset = entrypointOf(state, zoneId);
      return ruleset ? rulesetView(ruleset) : null;
    },
    getPageRules: (zoneId) =>
      [...state.pageRules.values()]
        .filter((rule) => rule.zoneId === zoneId)
        .sort((a, b) => a.priority - b.priority)
        .map(pageRuleView),
    getZoneSettings(zoneId) {
      const zone = state.zones.get(zoneId);
      if (!zone) return null;
      const settings = Object.fromEntries(
        Object.keys(ZONE_SETTINGS).map((id) => [id, zoneSettingView(zone, id).value]),
      );
      return { settings, bot_management: botManagementView(zone) };
    },

    addSecurityEvents(events) {
      const added = context.analytics.added.add(events);
      if (typeof added === 'string') throw new ControlError(added);
      return added;
    },

    snapshot() {
      return {
        accounts: control.getAccounts(),
        tokens: [...state.tokens.values()].map(tokenInfo),
        zones: control.getZones(),
        lists: [...state.lists.values()].map((list) => ({
          ...listView(state, list),
          account_id: list.accountId,
        })),
        dnsRecords: state.dnsRecords.size,
        customRules: [...state.rulesets.values()].reduce((count, ruleset) => count + ruleset.rules.length, 0),
        pageRules: state.pageRules.size,
      };
    },

    persistTo: (file) => persistTo(file),

    reset() {
      state.clear();
      faults.clear();
      calls.reset();
      rateLimiter?.reset();
      graphqlRateLimiter?.reset();
      context.analytics.reset();
      state.changed();
    },
  };
  return control;
}

function callFilter(query: Record<string, string | undefined>): CallFilter {
  const filter: CallFilter = {};
  if (query.method) filter.method = query.method;
  if (query.token) filter.token = query.token;
  if (query.pathRegex) filter.path = new RegExp(query.pathRegex);
  else if (query.path) filter.path = query.path;
  return filter;
}

/** The header that carries the run's control secret (`Sandbox.controlSecret`). */
export const CONTROL_SECRET_HEADER = 'x-sandbox-control-secret';

/** localhost, a name under .localhost, 127.0.0.0/8 or [::1], with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = (
    host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!
  ).toLowerCase();
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The control API over HTTP under /__sandbox, for a sandbox running in another process. It resets
 * the state and answers the tokens, so it asks for the run's secret (a browser cannot add the header
 * to a cross-site request without a CORS preflight, which is never allowed) and answers only requests
 * addressed to a loopback name (a DNS-rebound name reaches the port, but with its own Host).
 */
export function registerControlRoutes(app: FastifyInstance, control: SandboxControl, secret: string): void {
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error instanceof ControlError ? error.status : (error.statusCode ?? 500);
    void reply.status(status).send({ error: error.message });
  });

  const expected = digest(secret);
  app.addHook('onRequest', async (request) => {
    if (!isLoopbackHost(request.headers.host)) {
      throw new ControlError('The control API answers requests to localhost, 127.0.0.1 or [::1] only', 403);
    }
    const given = request.headers[CONTROL_SECRET_HEADER];
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      throw new ControlError(
        `The control API needs this run's secret in the ${CONTROL_SECRET_HEADER} header`,
        403,
      );
    }
  });

  const body = (value: unknown): Record<string, unknown> => {
    if (!isRecord(value)) throw new ControlError('The body must be a JSON object');
    return value;
  };

  app.get('/health', async () => ({ ok: true }));
  app.get('/snapshot', async () => control.snapshot());
  app.post('/reset', async () => {
    control.reset();
    return { ok: true };
  });
  app.post('/settle', async () => {
    await control.settle();
    return { ok: true };
  });

  app.get('/accounts', async () => control.getAccounts());
  app.post<{ Body: unknown }>('/accounts', async (request) =>
    control.addAccount(body(request.body) as unknown as AccountInput),
  );
  app.post<{ Body: unknown }>('/tokens', async (request) =>
    control.addToken(body(request.body) as unknown as TokenInput),
  );
  app.delete<{ Params: { value: string } }>('/tokens/:value', async (request) => {
    control.removeToken(request.params.value);
    return { ok: true };
  });
  app.put<{ Params: { value: string }; Body: unknown }>('/tokens/:value/status', async (request) => {
    control.setTokenStatus(request.params.value, body(request.body).status as TokenStatus);
    return { ok: true };
  });

  app.get<{ Params: { account_id: string } }>('/accounts/:account_id/lists', async (request) =>
    control.getLists(request.params.account_id),
  );
  app.post<{ Params: { account_id: string }; Body: unknown }>(
    '/accounts/:account_id/lists',
    async (request) =>
      control.addList(
        request.params.account_id,
        body(request.body) as unknown as { name: string; kind: ListKind },
      ),
  );
  app.get<{ Params: { account_id: string; list_id: string } }>(
    '/accounts/:account_id/lists/:list_id/items',
    async (request) => control.getListItems(request.params.account_id, request.params.list_id),
  );
  app.post<{ Params: { account_id: string; list_id: string }; Body: unknown }>(
    '/accounts/:account_id/lists/:list_id/items',
    async (request) => {
      if (!Array.isArray(request.body)) throw new ControlError('The body must be a JSON array of items');
      const items = request.body.filter(isRecord);
      return { num_items: control.seedListItems(request.params.account_id, request.params.list_id, items) };
    },
  );

  app.post<{ Params: { account_id: string }; Body: unknown }>(
    '/accounts/:account_id/zones',
    async (request) => {
      const { name, status } = body(request.body);
      if (typeof name !== 'string') throw new ControlError('A zone needs a name');
      return control.addZone(
        request.params.account_id,
        name,
        status === 'active' ? { status: 'active' } : {},
      );
    },
  );
  app.get<{ Querystring: { account_id?: string } }>('/zones', async (request) =>
    control.getZones(request.query.account_id),
  );
  app.post<{ Params: { zone_id: string } }>('/zones/:zone_id/activate', async (request) => {
    control.activateZone(request.params.zone_id);
    return { ok: true };
  });
  app.get<{ Params: { zone_id: string } }>('/zones/:zone_id/dns_records', async (request) =>
    control.getDnsRecords(request.params.zone_id),
  );
  app.get<{ Params: { zone_id: string } }>('/zones/:zone_id/rules', async (request) =>
    control.getRules(request.params.zone_id),
  );
  app.get<{ Params: { zone_id: string } }>('/zones/:zone_id/pagerules', async (request) =>
    control.getPageRules(request.params.zone_id),
  );
  app.get<{ Params: { zone_id: string } }>('/zones/:zone_id/settings', async (request) => {
    const settings = control.getZoneSettings(request.params.zone_id);
    if (!settings) throw new ControlError('No such zone', 404);
    return settings;
  });
  app.get<{ Params: { operation_id: string } }>('/bulk_operations/:operation_id', async (request) => {
    const operation = control.getBulkOperation(request.params.operation_id);
    if (!operation) throw new ControlError('No such operation', 404);
    return operation;
  });

  // A fresh attack for tests and the demo; the body is bounded (1,000 events) well below the sandbox's.
  app.post<{ Body: unknown }>('/analytics/events', { bodyLimit: 1024 * 1024 }, async (request) => {
    if (!Array.isArray(request.body)) throw new ControlError('The body must be a JSON array of events');
    return { added: control.addSecurityEvents(request.body as SecurityEventInput[]) };
  });

  app.get('/faults', async () => control.faults().map(serializeFault));
  app.post<{ Body: unknown }>('/faults', async (request) => {
    const { pathRegex, ...rest } = body(request.body);
    const spec = rest as FaultSpec;
    if (typeof pathRegex === 'string') spec.path = new RegExp(pathRegex);
    return serializeFault(control.injectFault(spec));
  });
  app.delete('/faults', async () => {
    control.clearFaults();
    return { ok: true };
  });
  app.delete<{ Params: { id: string } }>('/faults/:id', async (request) => {
    control.removeFault(request.params.id);
    return { ok: true };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/calls', async (request) => {
    const filter = callFilter(request.query);
    const calls = control.callLog(filter);
    return { count: calls.length, calls };
  });
  app.delete('/calls', async () => {
    control.resetCalls();
    return { ok: true };
  });
}

function serializeFault(fault: Fault) {
  const { path, ...rest } = fault;
  return path instanceof RegExp ? { ...rest, pathRegex: path.source } : { ...rest, path };
}
