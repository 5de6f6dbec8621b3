import { findFirewallExpressionProblem } from '@guardian/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CloudflareError, fail, ok, timestamp, type RulesetsMessage } from '../envelope';
import { newId } from '../ids';
import { PLAN_LIMITS } from '../plans';
import type { SandboxContext } from '../context';
import type { CustomRule, Ruleset, SandboxState, Zone } from '../state';
import { accountOfZone, authenticate, requireZone } from './tokens';
import { queryValue } from './paging';
import { isRecord } from '../is-record';

/** WAF custom rules live in the zone's entrypoint ruleset of this phase; the sandbox emulates only it. */
export const CUSTOM_RULES_PHASE = 'http_request_firewall_custom';
const ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip'];
const SKIP_PRODUCTS = ['bic', 'hot', 'rateLimit', 'securityLevel', 'uaBlock', 'waf', 'zoneLockdown'];
const SKIP_PHASES = ['http_ratelimit', 'http_request_firewall_managed', 'http_request_sbfm'];
const MAX_EXPRESSION_LENGTH = 4096;

/** Rulesets validation errors carry a JSON pointer to the offending field and no code. */
function invalid(messages: RulesetsMessage[]): CloudflareError {
  return new CloudflareError(400, messages);
}

const rulesetNotFound = (id: string) => fail(404, 10003, `could not find ruleset ${id}`);
const entrypointNotFound = (phase: string) =>
  fail(404, 10003, `could not find entrypoint ruleset in the '${phase}' phase`);

/** The expression with string literals blanked out, so `$`, `(` and `"` inside strings do not count. */
function withoutStrings(expression: string): string {
  let code = '';
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i] as string;
    if (char !== '"') {
      code += char;
      continue;
    }
    code += ' ';
    for (i++; i < expression.length && expression[i] !== '"'; i++) {
      if (expression[i] === '\\') i++;
      code += ' ';
    }
    code += ' ';
  }
  return code;
}

/** Names of the custom lists an expression references (`ip.src in $blocked_ips`); managed `$cf.*` excluded. */
export function referencedLists(expression: string): string[] {
  const code = withoutStrings(expression);
  return [...code.matchAll(/\$([a-z0-9_]+)(?![a-z0-9_.])/g)].map((match) => match[1] as string);
}

/** How many custom rules of the account's zones reference each list, by list name. */
export function listReferences(state: SandboxState, accountId: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ruleset of state.rulesets.values()) {
    if (state.zones.get(ruleset.zoneId)?.accountId !== accountId) continue;
    for (const rule of ruleset.rules) {
      for (const name of new Set(referencedLists(rule.expression)))
        counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
}

function parsingError(expression: string, column: number, reason: string): string {
  return `Filter parsing error (1:${column + 1}):\n${expression}\n${' '.repeat(column)}^ ${reason}\n`;
}

/**
 * Cloudflare's check of an expression: the Rules language's grammar, read by the same module the
 * console uses (`@guardian/contract`'s firewall-expression: one grammar, so the console and its stand-in
 * cannot drift apart; its own tests hold it to wirefilter's grammar), answered in Cloudflare's
 * words and shape, then the lists it names must exist in the account.
 */
export function checkExpression(expression: string, listNames: Set<string>): string | null {
  if (expression.trim() === '') return 'the expression must not be empty';
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    return `the expression is longer than the maximum of ${MAX_EXPRESSION_LENGTH} characters`;
  }
  const problem = findFirewallExpressionProblem(expression);
  if (problem) return parsingError(expression, problem.position - 1, problem.reason);
  const code = withoutStrings(expression);
  for (const name of referencedLists(expression)) {
    if (!listNames.has(name)) {
      return parsingError(expression, Math.max(0, code.indexOf(`$${name}`)), `could not find list $${name}`);
    }
  }
  return null;
}

interface RuleInput {
  id?: string;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  ref?: string;
  actionParameters?: Record<string, unknown>;
  logging?: { enabled: boolean };
}

function validateActionParameters(action: string, value: unknown, at: string): RulesetsMessage | null {
  if (action === 'skip') {
    if (!isRecord(value) || Object.keys(value).length === 0) {
      return {
        message: 'the skip action needs action_parameters, e.g. {"ruleset": "current"}',
        source: { pointer: at },
      };
    }
    for (const [key, parameter] of Object.entries(value)) {
      const ok =
        (key === 'ruleset' && parameter === 'current') ||
        (key === 'phases' &&
          Array.isArray(parameter) &&
          parameter.length > 0 &&
          parameter.every((p) => SKIP_PHASES.includes(p))) ||
        (key === 'products' &&
          Array.isArray(parameter) &&
          parameter.length > 0 &&
          parameter.every((p) => SKIP_PRODUCTS.includes(p)));
      if (!ok) return { message: `invalid skip parameter '${key}'`, source: { pointer: `${at}/${key}` } };
    }
    return null;
  }
  if (value === undefined || (isRecord(value) && Object.keys(value).length === 0)) return null;
  if (action === 'block' && isRecord(value) && Object.keys(value).every((key) => key === 'response')) {
    const response = value.response;
    if (
      isRecord(response) &&
      typeof response.status_code === 'number' &&
      response.status_code >= 400 &&
      response.status_code <= 499 &&
      typeof response.content === 'string' &&
      response.content !== '' &&
      typeof response.content_type === 'string' &&
      response.content_type !== ''
    ) {
      return null;
    }
    return {
      message: 'the block response needs status_code (400-499), content and content_type',
      source: { pointer: `${at}/response` },
    };
  }
  return { message: `the ${action} action takes no action_parameters`, source: { pointer: at } };
}

/** Reads one rule of a request body; `partial` (PATCH) lets fields be absent, to keep the stored ones. */
function readRule(
  value: unknown,
  at: string,
  context: { plan: keyof typeof PLAN_LIMITS; listNames: Set<string>; base?: CustomRule },
): RuleInput | RulesetsMessage[] {
  if (!isRecord(value)) return [{ message: 'a rule must be a JSON object', source: { pointer: at } }];
  const base = context.base;
  const errors: RulesetsMessage[] = [];
  const action = value.action ?? base?.action;
  if (typeof action !== 'string' || !ACTIONS.includes(action)) {
    errors.push({
      message: `'${String(action)}' is not a valid value for action because it's not one of the allowed values of the ${CUSTOM_RULES_PHASE} phase: ${ACTIONS.join(', ')}`,
      source: { pointer: `${at}/action` },
    });
  } else if (action === 'log' && !PLAN_LIMITS[context.plan].logAction) {
    errors.push({
      message: 'the log action is only available on Enterprise plans',
      source: { pointer: `${at}/action` },
    });
  }
  const expression = value.expression ?? base?.expression;
  if (typeof expression !== 'string') {
    errors.push({ message: 'the expression is required', source: { pointer: `${at}/expression` } });
  } else {
    const problem = checkExpression(expression, context.listNames);
    if (problem) errors.push({ message: problem, source: { pointer: `${at}/expression` } });
  }
  const description = value.description ?? base?.description ?? '';
  if (typeof description !== 'string')
    errors.push({ message: 'description must be a string', source: { pointer: `${at}/description` } });
  const enabled = value.enabled ?? base?.enabled ?? true;
  if (typeof enabled !== 'boolean')
    errors.push({ message: 'enabled must be a boolean', source: { pointer: `${at}/enabled` } });
  const ref = value.ref ?? base?.ref;
  if (ref !== undefined && (typeof ref !== 'string' || ref === '')) {
    errors.push({ message: 'ref must be a non-empty string', source: { pointer: `${at}/ref` } });
  }
  const actionChanged = value.action !== undefined && value.action !== base?.action;
  const parameters = value.action_parameters ?? (actionChanged ? undefined : base?.actionParameters);
  if (typeof action === 'string' && ACTIONS.includes(action)) {
    const problem = validateActionParameters(action, parameters, `${at}/action_parameters`);
    if (problem) errors.push(problem);
  }
  const logging = value.logging ?? base?.logging;
  if (logging !== undefined && !(isRecord(logging) && typeof logging.enabled === 'boolean')) {
    errors.push({ message: 'logging must be {"enabled": boolean}', source: { pointer: `${at}/logging` } });
  }
  if (value.id !== undefined && typeof value.id !== 'string')
    errors.push({ message: 'id must be a string', source: { pointer: `${at}/id` } });
  if (errors.length > 0) return errors;

  const rule: RuleInput = {
    action: action as string,
    expression: expression as string,
    description: description as string,
    enabled: enabled as boolean,
  };
  if (typeof value.id === 'string') rule.id = value.id;
  if (typeof ref === 'string') rule.ref = ref;
  if (isRecord(parameters) && Object.keys(parameters).length > 0) rule.actionParameters = parameters;
  if (isRecord(logging)) rule.logging = { enabled: logging.enabled as boolean };
  return rule;
}

function sameRule(rule: CustomRule, input: RuleInput): boolean {
  return (
    rule.action === input.action &&
    rule.expression === input.expression &&
    rule.description === input.description &&
    rule.enabled === input.enabled &&
    rule.ref === (input.ref ?? rule.ref) &&
    JSON.stringify(rule.actionParameters ?? null) === JSON.stringify(input.actionParameters ?? null) &&
    JSON.stringify(rule.logging ?? null) === JSON.stringify(input.logging ?? null)
  );
}

/** A stored rule from its input: a new rule gets version 1, a changed one the next version. */
function materialize(input: RuleInput, existing: CustomRule | undefined, now: string): CustomRule {
  if (existing && sameRule(existing, input)) return existing;
  const id = existing?.id ?? newId();
  const rule: CustomRule = {
    id,
    version: existing ? existing.version + 1 : 1,
    action: input.action,
    expression: input.expression,
    description: input.description,
    enabled: input.enabled,
    ref: input.ref ?? existing?.ref ?? id,
    lastUpdated: now,
  };
  if (input.actionParameters) rule.actionParameters = input.actionParameters;
  if (input.logging) rule.logging = input.logging;
  return rule;
}

export function ruleView(rule: CustomRule) {
  const view: Record<string, unknown> = {
    id: rule.id,
    version: String(rule.version),
    action: rule.action,
    expression: rule.expression,
    description: rule.description,
    last_updated: rule.lastUpdated,
    ref: rule.ref,
    enabled: rule.enabled,
  };
  if (rule.actionParameters) view.action_parameters = rule.actionParameters;
  if (rule.logging) view.logging = rule.logging;
  return view;
}

export function rulesetView(ruleset: Ruleset, withRules = true) {
  const view: Record<string, unknown> = {
    id: ruleset.id,
    name: ruleset.name,
    description: ruleset.description,
    kind: ruleset.kind,
    version: String(ruleset.version),
    last_updated: ruleset.lastUpdated,
    phase: ruleset.phase,
  };
  if (withRules) view.rules = ruleset.rules.map(ruleView);
  return view;
}

export function entrypointOf(state: SandboxState, zoneId: string): Ruleset | undefined {
  for (const ruleset of state.rulesets.values()) {
    if (ruleset.zoneId === zoneId && ruleset.phase === CUSTOM_RULES_PHASE) return ruleset;
  }
  return undefined;
}

type PositionInput = { before?: unknown; after?: unknown; index?: unknown };

/** Where a rule goes: `{before: id}`, `{after: id}` (empty id: first / last) or `{index: n}` (1-based). */
function resolvePosition(rules: CustomRule[], position: unknown, fallback: number): number | RulesetsMessage {
  if (position === undefined) return fallback;
  const at = { pointer: '/position' };
  if (!isRecord(position) || Object.keys(position).length !== 1) {
    return { message: 'position must have exactly one of before, after or index', source: at };
  }
  const { before, after, index } = position as PositionInput;
  if (index !== undefined) {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 1) {
      return { message: 'position.index must be an integer of at least 1', source: at };
    }
    return Math.min(index - 1, rules.length);
  }
  const anchor = before ?? after;
  if (typeof anchor !== 'string')
    return { message: 'position.before and position.after take a rule id', source: at };
  if (anchor === '') return before !== undefined ? 0 : rules.length;
  const anchorIndex = rules.findIndex((rule) => rule.id === anchor);
  if (anchorIndex < 0) return { message: `could not find rule ${anchor} to position against`, source: at };
  return before !== undefined ? anchorIndex : anchorIndex + 1;
}

export function registerRulesetRoutes(app: FastifyInstance, { state }: SandboxContext): void {
  const zoneContext = (zone: Zone) => {
    const plan = accountOfZone(state, zone).plan;
    const listNames = new Set(state.listsOf(zone.accountId).map((list) => list.name));
    return { plan, listNames };
  };

  const checkQuota = (zone: Zone, count: number) => {
    const limit = PLAN_LIMITS[accountOfZone(state, zone).plan].customRules;
    if (count > limit) {
      throw invalid([
        {
          message: `exceeded the maximum number of rules in the ${CUSTOM_RULES_PHASE} phase for this zone's plan: ${count} out of ${limit}`,
          source: { pointer: '/rules' },
        },
      ]);
    }
  };

  const checkUniqueRefs = (rules: CustomRule[]) => {
    const refs = new Set<string>();
    rules.forEach((rule, index) => {
      if (refs.has(rule.ref)) {
        throw invalid([
          { message: `duplicate rule ref '${rule.ref}'`, source: { pointer: `/rules/${index}/ref` } },
        ]);
      }
      refs.add(rule.ref);
    });
  };

  const isDryRun = (request: FastifyRequest<{ Querystring: Record<string, unknown> }>) =>
    queryValue(request.query.dry_run) === 'true';

  /** Saves a ruleset's new rule list as one new version and answers with the whole ruleset. */
  const commit = (
    ruleset: Ruleset,
    rules: CustomRule[],
    dryRun: boolean,
    isNew: boolean,
    description?: string,
  ) => {
    if (dryRun) return ok(null);
    const now = timestamp();
    if (description !== undefined) ruleset.description = description;
    ruleset.rules = rules;
    ruleset.version = isNew ? 1 : ruleset.version + 1;
    ruleset.lastUpdated = now;
    state.rulesets.set(ruleset.id, ruleset);
    state.changed();
    return ok(rulesetView(ruleset));
  };

  const newRuleset = (zone: Zone, name = 'default', description = ''): Ruleset => ({
    id: newId(),
    zoneId: zone.id,
    name,
    description,
    kind: 'zone',
    phase: CUSTOM_RULES_PHASE,
    version: 0,
    lastUpdated: timestamp(),
    rules: [],
  });

  /** The rules of a request body, each new or matched by id to the existing ruleset's rules. */
  const readRules = (zone: Zone, existing: Ruleset | undefined, value: unknown): CustomRule[] => {
    const inputs = value ?? [];
    if (!Array.isArray(inputs))
      throw invalid([{ message: 'rules must be an array', source: { pointer: '/rules' } }]);
    const context = zoneContext(zone);
    const now = timestamp();
    const errors: RulesetsMessage[] = [];
    const rules: CustomRule[] = [];
    inputs.forEach((input, index) => {
      const rule = readRule(input, `/rules/${index}`, context);
      if (Array.isArray(rule)) {
        errors.push(...rule);
        return;
      }
      const current = rule.id === undefined ? undefined : existing?.rules.find((r) => r.id === rule.id);
      if (rule.id !== undefined && !current) {
        errors.push({
          message: `could not find rule ${rule.id} in the ruleset`,
          source: { pointer: `/rules/${index}/id` },
        });
        return;
      }
      rules.push(materialize(rule, current, now));
    });
    if (errors.length > 0) throw invalid(errors);
    return rules;
  };

  type ZoneParams = { zone_id: string };
  type RulesetParams = ZoneParams & { ruleset_id: string };
  type Query = { Querystring: Record<string, unknown> };

  const rulesetOf = (zone: Zone, rulesetId: string): Ruleset => {
    const ruleset = state.rulesets.get(rulesetId);
    if (!ruleset || ruleset.zoneId !== zone.id) throw rulesetNotFound(rulesetId);
    return ruleset;
  };

  app.get<{ Params: ZoneParams } & Query>('/zones/:zone_id/rulesets', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    const perPageText = queryValue(request.query.per_page);
    const perPage = perPageText === undefined ? 50 : Number(perPageText);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 50) {
      throw invalid([
        { message: 'per_page must be an integer between 1 and 50', source: { pointer: '/per_page' } },
      ]);
    }
    const rulesets = state.rulesetsOf(zone.id).sort((a, b) => (a.id < b.id ? -1 : 1));
    const cursor = queryValue(request.query.cursor);
    const start = cursor ? rulesets.findIndex((ruleset) => ruleset.id > cursor) : 0;
    const page = start < 0 ? [] : rulesets.slice(start, start + perPage);
    const last = page[page.length - 1];
    const more = start >= 0 && start + perPage < rulesets.length;
    return ok(
      page.map((ruleset) => rulesetView(ruleset, false)),
      more && last ? { cursors: { after: last.id } } : undefined,
    );
  });

  app.post<{ Params: ZoneParams; Body: unknown } & Query>('/zones/:zone_id/rulesets', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    const body = request.body;
    if (!isRecord(body))
      throw invalid([{ message: 'the request body must be a ruleset object', source: { pointer: '' } }]);
    const errors: RulesetsMessage[] = [];
    if (typeof body.name !== 'string' || body.name === '')
      errors.push({ message: 'name is required', source: { pointer: '/name' } });
    if (body.kind !== 'zone') {
      errors.push({ message: "kind must be 'zone' for a zone-level ruleset", source: { pointer: '/kind' } });
    }
    if (body.phase !== CUSTOM_RULES_PHASE) {
      errors.push({
        message: `the sandbox emulates only the ${CUSTOM_RULES_PHASE} phase`,
        source: { pointer: '/phase' },
      });
    }
    if (body.description !== undefined && typeof body.description !== 'string') {
      errors.push({ message: 'description must be a string', source: { pointer: '/description' } });
    }
    if (errors.length > 0) throw invalid(errors);
    if (entrypointOf(state, zone.id)) {
      throw invalid([
        {
          message: `a zone ruleset already exists for the ${CUSTOM_RULES_PHASE} phase`,
          source: { pointer: '/phase' },
        },
      ]);
    }
    const ruleset = newRuleset(zone, body.name as string, (body.description as string | undefined) ?? '');
    const rules = readRules(zone, undefined, body.rules);
    checkQuota(zone, rules.length);
    checkUniqueRefs(rules);
    return commit(ruleset, rules, isDryRun(request), true);
  });

  app.get<{ Params: RulesetParams }>('/zones/:zone_id/rulesets/:ruleset_id', async (request) => {
    const token = authenticate(state, request);
    const zone = requireZone(state, token, request.params.zone_id, request);
    return ok(rulesetView(rulesetOf(zone, request.params.ruleset_id)));
  });

  app.get<{ Params: ZoneParams & { ruleset_phase: string } }>(
    '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const phase = request.params.ruleset_phase;
      const ruleset = phase === CUSTOM_RULES_PHASE ? entrypointOf(state, zone.id) : undefined;
      if (!ruleset) throw entrypointNotFound(phase);
      return ok(rulesetView(ruleset));
    },
  );

  app.put<{ Params: ZoneParams & { ruleset_phase: string }; Body: unknown } & Query>(
    '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      if (request.params.ruleset_phase !== CUSTOM_RULES_PHASE) {
        throw invalid([
          {
            message: `the sandbox emulates only the ${CUSTOM_RULES_PHASE} phase`,
            source: { pointer: '/phase' },
          },
        ]);
      }
      const body = request.body;
      if (!isRecord(body))
        throw invalid([{ message: 'the request body must be a ruleset object', source: { pointer: '' } }]);
      const existing = entrypointOf(state, zone.id);
      const ruleset = existing ?? newRuleset(zone);
      if (body.description !== undefined && typeof body.description !== 'string') {
        throw invalid([{ message: 'description must be a string', source: { pointer: '/description' } }]);
      }
      const rules = readRules(zone, existing, body.rules);
      checkQuota(zone, rules.length);
      checkUniqueRefs(rules);
      return commit(ruleset, rules, isDryRun(request), !existing, body.description as string | undefined);
    },
  );

  app.post<{ Params: RulesetParams; Body: unknown } & Query>(
    '/zones/:zone_id/rulesets/:ruleset_id/rules',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const ruleset = rulesetOf(zone, request.params.ruleset_id);
      const body = request.body;
      const input = readRule(body, '', zoneContext(zone));
      if (Array.isArray(input)) throw invalid(input);
      if (input.id !== undefined) {
        throw invalid([{ message: 'a new rule cannot carry an id', source: { pointer: '/id' } }]);
      }
      const rules = [...ruleset.rules];
      const index = resolvePosition(rules, isRecord(body) ? body.position : undefined, rules.length);
      if (typeof index !== 'number') throw invalid([index]);
      rules.splice(index, 0, materialize(input, undefined, timestamp()));
      checkQuota(zone, rules.length);
      checkUniqueRefs(rules);
      return commit(ruleset, rules, isDryRun(request), false);
    },
  );

  app.patch<{ Params: RulesetParams & { rule_id: string }; Body: unknown } & Query>(
    '/zones/:zone_id/rulesets/:ruleset_id/rules/:rule_id',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const ruleset = rulesetOf(zone, request.params.ruleset_id);
      const current = ruleset.rules.find((rule) => rule.id === request.params.rule_id);
      if (!current)
        throw fail(404, 10003, `could not find rule ${request.params.rule_id} in ruleset ${ruleset.id}`);
      const body = request.body;
      const input = readRule(body, '', { ...zoneContext(zone), base: current });
      if (Array.isArray(input)) throw invalid(input);
      if (input.id !== undefined && input.id !== current.id) {
        throw invalid([{ message: 'the rule id cannot be changed', source: { pointer: '/id' } }]);
      }
      const others = ruleset.rules.filter((rule) => rule !== current);
      const currentIndex = ruleset.rules.indexOf(current);
      const index = resolvePosition(others, isRecord(body) ? body.position : undefined, currentIndex);
      if (typeof index !== 'number') throw invalid([index]);
      others.splice(index, 0, materialize(input, current, timestamp()));
      checkUniqueRefs(others);
      return commit(ruleset, others, isDryRun(request), false);
    },
  );

  app.delete<{ Params: RulesetParams & { rule_id: string } } & Query>(
    '/zones/:zone_id/rulesets/:ruleset_id/rules/:rule_id',
    async (request) => {
      const token = authenticate(state, request);
      const zone = requireZone(state, token, request.params.zone_id, request);
      const ruleset = rulesetOf(zone, request.params.ruleset_id);
      const rules = ruleset.rules.filter((rule) => rule.id !== request.params.rule_id);
      if (rules.length === ruleset.rules.length) {
        throw fail(404, 10003, `could not find rule ${request.params.rule_id} in ruleset ${ruleset.id}`);
      }
      return commit(ruleset, rules, isDryRun(request), false);
    },
  );

  // The Firewall Rules and Filters APIs were retired in favour of WAF custom rules.
  const gone = async (request: FastifyRequest) => {
    authenticate(state, request);
    throw fail(
      410,
      10410,
      'The Firewall Rules API and the Filters API are gone. Use WAF custom rules: the Rulesets API, phase http_request_firewall_custom.',
    );
  };
  for (const path of ['/zones/:zone_id/firewall/rules', '/zones/:zone_id/filters']) {
    app.all(path, gone);
    app.all(`${path}/*`, gone);
  }
}
