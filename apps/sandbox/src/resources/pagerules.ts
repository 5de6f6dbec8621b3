import { isForwardingDestination } from '@guardian/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CloudflareError, ok, timestamp, type ResponseInfo } from '../envelope';
import { newId } from '../ids';
import { PLAN_LIMITS } from '../plans';
import type { SandboxContext } from '../context';
import type { PageRule, PageRuleAction, PageRuleTarget, SandboxState, Zone } from '../state';
import { accountOfZone, authenticate, requireZone } from './tokens';
import { queryValue } from './paging';
import { isRecord } from '../is-record';

const ON_OFF = ['on', 'off'];
type ValueCheck = (value: unknown) => boolean;

const oneOf =
  (values: readonly unknown[]): ValueCheck =>
  (value) =>
    values.includes(value);
const integer =
  (min: number, max: number): ValueCheck =>
  (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const text =
  (min: number, max: number): ValueCheck =>
  (value) =>
    typeof value === 'string' && value.length >= min && value.length <= max;
const isObject: ValueCheck = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Cloudflare forwards only to an absolute http(s) URL (`$1`... standing for the pattern's matches). */
const forwarding: ValueCheck = (value) =>
  isObject(value) &&
  [301, 302].includes((value as Record<string, unknown>).status_code as number) &&
  text(1, 1500)((value as Record<string, unknown>).url) &&
  isForwardingDestination((value as Record<string, string>).url!);

/** Page rule actions from the OpenAPI document; `null` marks actions that take no value. */
const ACTIONS: Record<string, ValueCheck | null> = {
  always_use_https: null,
  automatic_https_rewrites: oneOf(ON_OFF),
  browser_cache_ttl: integer(0, 31_536_000),
  browser_check: oneOf(ON_OFF),
  bypass_cache_on_cookie: text(1, 150),
  cache_by_device_type: oneOf(ON_OFF),
  cache_deception_armor: oneOf(ON_OFF),
  cache_key_fields: isObject,
  cache_level: oneOf(['bypass', 'basic', 'simplified', 'aggressive', 'cache_everything']),
  cache_on_cookie: text(1, 150),
  cache_ttl_by_status: isObject,
  disable_apps: null,
  disable_performance: null,
  disable_security: null,
  disable_zaraz: null,
  edge_cache_ttl: integer(1, 31_536_000),
  email_obfuscation: oneOf(ON_OFF),
  explicit_cache_control: oneOf(ON_OFF),
  forwarding_url: forwarding,
  host_header_override: text(1, 255),
  ip_geolocation: oneOf(ON_OFF),
  mirage: oneOf(ON_OFF),
  opportunistic_encryption: oneOf(ON_OFF),
  origin_error_page_pass_thru: oneOf(ON_OFF),
  polish: oneOf(['off', 'lossless', 'lossy']),
  resolve_override: text(1, 255),
  respect_strong_etag: oneOf(ON_OFF),
  response_buffering: oneOf(ON_OFF),
  rocket_loader: oneOf(ON_OFF),
  security_level: oneOf(['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack']),
  sort_query_string_for_cache: oneOf(ON_OFF),
  ssl: oneOf(['off', 'flexible', 'full', 'strict', 'origin_pull']),
  true_client_ip_header: oneOf(ON_OFF),
  waf: oneOf(ON_OFF),
};

const OPERATORS = ['matches', 'contains', 'equals', 'not_equal', 'not_contain'];

/** Cloudflare answers page rule problems with 1004 and puts the details in `messages`. */
function validationFailed(details: string[]): CloudflareError {
  const messages: ResponseInfo[] = details.map((message) => ({ code: 1004, message }));
  return new CloudflareError(
    400,
    [{ code: 1004, message: 'Page Rule validation failed: See messages for details.' }],
    {
      messages,
    },
  );
}

const notFound = () => new CloudflareError(404, [{ code: 1002, message: 'Invalid Page Rule identifier' }]);

interface PageRuleFields {
  targets: PageRuleTarget[];
  actions: PageRuleAction[];
  priority?: number;
  status: PageRule['status'];
}

function readTargets(value: unknown, details: string[]): PageRuleTarget[] {
  if (!Array.isArray(value) || value.length !== 1) {
    details.push('.targets: exactly one URL target is required');
    return [];
  }
  const target = value[0];
  const constraint = isRecord(target) ? target.constraint : undefined;
  if (!isRecord(target) || target.target !== 'url' || !isRecord(constraint)) {
    details.push('.targets[0]: a target must be {"target": "url", "constraint": {"operator", "value"}}');
    return [];
  }
  const operator = constraint.operator ?? 'contains';
  const pattern = constraint.value;
  if (typeof operator !== 'string' || !OPERATORS.includes(operator)) {
    details.push(`.targets[0].constraint.operator: must be one of ${OPERATORS.join(', ')}`);
  }
  if (typeof pattern !== 'string' || pattern.trim() === '') {
    details.push('.targets[0].constraint.value: the URL pattern is required');
  } else if ((pattern.match(/\*/g) ?? []).length > 4) {
    details.push('.targets[0].constraint.value: a URL pattern may contain at most four asterisks');
  }
  return [{ target: 'url', constraint: { operator: operator as string, value: (pattern as string).trim() } }];
}

function readActions(value: unknown, details: string[]): PageRuleAction[] {
  if (!Array.isArray(value) || value.length === 0) {
    details.push('.actions: at least one action is required');
    return [];
  }
  const actions: PageRuleAction[] = [];
  const seen = new Set<string>();
  value.forEach((input, index) => {
    const id = isRecord(input) ? input.id : undefined;
    if (typeof id !== 'string' || !(id in ACTIONS)) {
      details.push(`.actions[${index}].id: Invalid action ${String(id)}`);
      return;
    }
    if (seen.has(id)) details.push(`.actions[${index}].id: the action ${id} is set twice`);
    seen.add(id);
    const check = ACTIONS[id];
    const actionValue = (input as Record<string, unknown>).value;
    if (check && !check(actionValue)) {
      details.push(`.actions[${index}].value: invalid value for ${id}: ${JSON.stringify(actionValue)}`);
    }
    actions.push(check ? { id, value: actionValue } : { id });
  });
  if (seen.has('forwarding_url') && seen.size > 1) {
    details.push('.actions: forwarding_url cannot be combined with other actions');
  }
  return actions;
}

function readFields(body: Record<string, unknown>): PageRuleFields {
  const details: string[] = [];
  const targets = readTargets(body.targets, details);
  const actions = readActions(body.actions, details);
  const status = body.status ?? 'disabled';
  if (status !== 'active' && status !== 'disabled') details.push('.status: must be active or disabled');
  const priority = body.priority;
  if (
    priority !== undefined &&
    (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 1)
  ) {
    details.push('.priority: must be a positive integer');
  }
  if (details.length > 0) throw validationFailed(details);
  const fields: PageRuleFields = { targets, actions, status: status as PageRule['status'] };
  if (typeof priority === 'number') fields.priority = priority;
  return fields;
}

export function pageRuleView(rule: PageRule) {
  return {
    id: rule.id,
    targets: rule.targets,
    actions: rule.actions,
    priority: rule.priority,
    status: rule.status,
    created_on: rule.createdOn,
    modified_on: rule.modifiedOn,
  };
}

/** The zone's page rules from lowest to highest priority. */
function rulesOf(state: SandboxState, zoneId: string): PageRule[] {
  return [...state.pageRules.values()]
    .filter((rule) => rule.zoneId === zoneId)
    .sort((a, b) => a.priority - b.priority);
}

/**
 * Cloudflare keeps page rule priorities a sequence 1..n (a higher number wins). A rule given priority p
 * takes that place and the rules from p upwards move up one; a priority past the end is the top.
 */
function place(state: SandboxState, zoneId: string, rule: PageRule, priority: number): void {
  const others = rulesOf(state, zoneId).filter((other) => other.id !== rule.id);
  const index = Math.min(Math.max(priority, 1), others.length + 1) - 1;
  others.splice(index, 0, rule);
  others.forEach((other, position) => {
    other.priority = position + 1;
  });
  state.pageRules.set(rule.id, rule);
}

export function registerPageRuleRoutes(app: FastifyInstance, { state }: SandboxContext): void {
  type ZoneParams = { zone_id: string };
  type RuleParams = ZoneParams & { pagerule_id: string };

  const ruleOf = (zone: Zone, id: string): PageRule => {
    const rule = state.pageRules.get(id);
    if (!rule || rule.zoneId !== zone.id) throw notFound();
    return rule;
  };

  const checkDistinctUrl = (zone: Zone, fields: PageRuleFields, selfId?: string) => {
    const pattern = fields.targets[0]?.constraint.value;
    const clash = rulesOf(state, zone.id).some(
      (rule) => rule.id !== selfId && rule.targets[0]?.constraint.value === pattern,
    );
    if (clash) {
      throw validationFailed([
        '.distinctTargetUrl: Your zone already has an existing page rule with that URL. If you are modifying only page rule settings use the Edit Page Rule option instead',
      ]);
    }
  };

  const zoneOf = (request: FastifyRequest<{ Params: ZoneParams }>): Zone => {
    const token = authenticate(state, request);
    return requireZone(state, token, request.params.zone_id, request);
  };

  app.get<{ Params: ZoneParams; Querystring: Record<string, unknown> }>(
    '/zones/:zone_id/pagerules',
    async (request) => {
      const zone = zoneOf(request);
      const query = request.query;
      const order = queryValue(query.order) ?? 'priority';
      const direction = queryValue(query.direction) ?? 'desc';
      const status = queryValue(query.status);
      const problems: string[] = [];
      if (order !== 'priority' && order !== 'status') problems.push('.order: must be priority or status');
      if (direction !== 'asc' && direction !== 'desc') problems.push('.direction: must be asc or desc');
      if (status !== undefined && status !== 'active' && status !== 'disabled')
        problems.push('.status: must be active or disabled');
      if (problems.length > 0) throw validationFailed(problems);
      const sign = direction === 'asc' ? 1 : -1;
      const rules = rulesOf(state, zone.id)
        .filter((rule) => status === undefined || rule.status === status)
        .sort((a, b) =>
          order === 'status'
            ? (a.status.localeCompare(b.status) || a.priority - b.priority) * sign
            : (a.priority - b.priority) * sign,
        );
      return ok(rules.map(pageRuleView));
    },
  );

  app.post<{ Params: ZoneParams; Body: unknown }>('/zones/:zone_id/pagerules', async (request) => {
    const zone = zoneOf(request);
    if (!isRecord(request.body)) throw validationFailed(['the request body must be a JSON object']);
    const fields = readFields(request.body);
    checkDistinctUrl(zone, fields);
    const limit = PLAN_LIMITS[accountOfZone(state, zone).plan].pageRules;
    if (rulesOf(state, zone.id).length >= limit) {
      throw validationFailed([`.quota: this zone has used all ${limit} page rules of its plan`]);
    }
    const now = timestamp();
    const rule: PageRule = {
      id: newId(),
      zoneId: zone.id,
      targets: fields.targets,
      actions: fields.actions,
      priority: 0,
      status: fields.status,
      createdOn: now,
      modifiedOn: now,
    };
    place(state, zone.id, rule, fields.priority ?? 1);
    state.changed();
    return ok(pageRuleView(rule));
  });

  app.get<{ Params: RuleParams }>('/zones/:zone_id/pagerules/:pagerule_id', async (request) =>
    ok(pageRuleView(ruleOf(zoneOf(request), request.params.pagerule_id))),
  );

  const update =
    (merge: boolean) => async (request: FastifyRequest<{ Params: RuleParams; Body: unknown }>) => {
      const zone = zoneOf(request);
      const rule = ruleOf(zone, request.params.pagerule_id);
      if (!isRecord(request.body)) throw validationFailed(['the request body must be a JSON object']);
      const body = merge
        ? { targets: rule.targets, actions: rule.actions, status: rule.status, ...request.body }
        : request.body;
      const fields = readFields(body);
      checkDistinctUrl(zone, fields, rule.id);
      rule.targets = fields.targets;
      rule.actions = fields.actions;
      rule.status = fields.status;
      rule.modifiedOn = timestamp();
      place(state, zone.id, rule, fields.priority ?? rule.priority);
      state.changed();
      return ok(pageRuleView(rule));
    };

  app.put<{ Params: RuleParams; Body: unknown }>('/zones/:zone_id/pagerules/:pagerule_id', update(false));
  app.patch<{ Params: RuleParams; Body: unknown }>('/zones/:zone_id/pagerules/:pagerule_id', update(true));

  app.delete<{ Params: RuleParams }>('/zones/:zone_id/pagerules/:pagerule_id', async (request) => {
    const zone = zoneOf(request);
    const rule = ruleOf(zone, request.params.pagerule_id);
    state.pageRules.delete(rule.id);
    rulesOf(state, zone.id).forEach((other, position) => {
      other.priority = position + 1;
    });
    state.changed();
    return ok({ id: rule.id });
  });
}
