import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  execute,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  VariablesInAllowedPositionRule,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { SandboxContext } from '../context';
import type { RateLimiter } from '../rate-limit';
import type { Account, SandboxState, Token, Zone } from '../state';
import type { Analytics } from '../analytics/analytics';
import type { Batch } from '../analytics/batches';
import { DATASET_SETTINGS, DATASETS, type Dataset } from '../analytics/datasets';
import {
  AnalyticsRefusal,
  groupEvents,
  listEvents,
  parsingError,
  timeRange,
  type GroupRow,
} from '../analytics/query';
import { analyticsSchema, AVAILABLE_FIELDS, TIME_FILTER_FIELDS } from '../analytics/schema';
import { bearerToken, statusOf } from './tokens';

/**
 * `POST /client/v4/graphql`: Cloudflare's GraphQL Analytics API for the zone datasets Guardian reads,
 * executed by graphql-js against the schema subset in analytics/schema.ts. Errors follow Cloudflare's
 * error page: `{data: null, errors: [{message, path, extensions: {code?, timestamp}}]}`, the whole query
 * failing when one part is refused, with the HTTP status the page gives each message.
 */

/** A zone-scoped query names at most this many zones (Cloudflare's global limit). */
export const MAX_ZONES_PER_QUERY = 10;
/**
 * Clock leeway of the retention and width checks: a client's "now minus the retention" arrives a moment
 * later, and an open range ends at the sandbox's now.
 */
const CLOCK_LEEWAY_MS = 60_000;

/**
 * Cloudflare accepts variables declared with a type other than the argument's (`$zoneTag: String!` for
 * a `string`, `$limit: Int!` for a `uint64`), which clients commonly send; graphql-js would refuse them.
 */
const RULES = specifiedRules.filter((rule) => rule !== VariablesInAllowedPositionRule);

interface QueryContext {
  state: SandboxState;
  analytics: Analytics;
  token: Token;
  now: number;
}

/** Cloudflare's error timestamps carry nanoseconds: 2019-12-09T21:27:19.195060142Z. */
const errorTimestamp = () => new Date().toISOString().replace('Z', '000000Z');

function errorBody(errors: { message: string; path?: readonly (string | number)[] | null; code?: string }[]) {
  const timestamp = errorTimestamp();
  return {
    data: null,
    errors: errors.map(({ message, path, code }) => ({
      message,
      // Cloudflare names the zone's index as a string: ["viewer", "zones", "0", "firewallEventsAdaptiveGroups"].
      path: path ? path.map(String) : null,
      extensions: code === undefined ? { timestamp } : { code, timestamp },
    })),
  };
}

const refuse = (reply: FastifyReply, status: number, message: string, code?: string) =>
  reply.status(status).send(errorBody([{ message, code }]));

/** Leaf fields a dataset node selects (nested ones counted one by one), fragments followed. */
function countLeaves(
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
): number {
  if (!selectionSet) return 1;
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value !== '__typename') count += countLeaves(selection.selectionSet, fragments);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countLeaves(selection.selectionSet, fragments);
    } else {
      count += countLeaves(fragments[selection.name.value]?.selectionSet, fragments);
    }
  }
  return count;
}

/** Names selected under the dataset's `dimensions` (under any alias), fragments followed. */
function selectedDimensions(info: GraphQLResolveInfo): string[] {
  const names = new Set<string>();
  const walk = (selectionSet: SelectionSetNode | undefined, inside: boolean) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (inside) names.add(selection.name.value);
        else if (selection.name.value === 'dimensions') walk(selection.selectionSet, true);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, inside);
      else walk(info.fragments[selection.name.value]?.selectionSet, inside);
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet, false);
  names.delete('__typename');
  return [...names];
}

interface DatasetArgs {
  filter?: Record<string, unknown> | null;
  limit: number;
  orderBy?: string[] | null;
}

/** Cloudflare's node limits for the zone's plan, checked before any data is read. */
function checkedRange(
  context: QueryContext,
  zone: Zone,
  account: Account,
  dataset: Dataset,
  args: DatasetArgs,
  info: GraphQLResolveInfo,
): { lo: number; hi: number } {
  const settings = DATASET_SETTINGS[account.plan][dataset];
  if (!settings.enabled)
    throw new AnalyticsRefusal(`zone '${zone.id}' does not have access to the path`, 403, 'authz');
  const fields = info.fieldNodes.reduce(
    (sum, node) => sum + countLeaves(node.selectionSet, info.fragments),
    0,
  );
  if (fields > settings.maxNumberOfFields)
    throw new AnalyticsRefusal(`number of fields can't be more than ${settings.maxNumberOfFields}`, 400);
  if (!Number.isInteger(args.limit) || args.limit <= 0 || args.limit > settings.maxPageSize)
    throw new AnalyticsRefusal(
      `limit must be positive number and not greater than ${settings.maxPageSize}`,
      400,
    );
  const range = timeRange(args.filter ?? undefined, TIME_FILTER_FIELDS[dataset]);
  const oldest = context.now - settings.notOlderThan * 1000;
  const lo = range.lo ?? oldest;
  const hi = range.hi ?? context.now;
  if (lo < oldest - CLOCK_LEEWAY_MS)
    throw new AnalyticsRefusal(`cannot request data older than ${settings.notOlderThan}s`, 400);
  if (hi - lo > settings.maxDuration * 1000 + CLOCK_LEEWAY_MS)
    throw new AnalyticsRefusal(
      `query time range is too large, the widest range allowed is ${settings.maxDuration}s`,
      400,
    );
  return { lo, hi: Math.min(hi, context.now) };
}

/** Whether the dataset node selects `name` at its top (under any alias), fragments followed. */
function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  const walk = (selectionSet: SelectionSetNode | undefined): boolean =>
    (selectionSet?.selections ?? []).some((selection) =>
      selection.kind === Kind.FIELD
        ? selection.name.value === name
        : walk(
            selection.kind === Kind.INLINE_FRAGMENT
              ? selection.selectionSet
              : info.fragments[selection.name.value]?.selectionSet,
          ),
    );
  return info.fieldNodes.some((node) => walk(node.selectionSet));
}

/**
 * A turn of the event loop before each part of a query is computed: a query of ten zones and ten
 * parts is a hundred short tasks, not one long one, so the sandbox answers its other callers (and a
 * process it shares, such as the benchmark's) meanwhile, as Cloudflare's many machines would.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function zoneNode(context: QueryContext, zone: Zone) {
  const account = context.state.accounts.get(zone.accountId)!;
  const timeFields = (dataset: Dataset) => TIME_FILTER_FIELDS[dataset];
  const filterOf = (args: DatasetArgs) => args.filter ?? undefined;
  const orderOf = (args: DatasetArgs) => args.orderBy ?? undefined;
  /**
   * The zone's batches of a range, drawn once per query: the parts of one query (a report asks ten
   * under aliases) read the same hours, which Cloudflare reads from storage, not by drawing them again.
   */
  const drawn = new Map<string, Batch[]>();
  const batchesOf = (kind: 'security' | 'traffic', lo: number, hi: number): Batch[] => {
    const key = `${kind}:${lo}:${hi}`;
    let batches = drawn.get(key);
    if (!batches) {
      batches =
        kind === 'security'
          ? context.analytics.securityBatches(zone, lo, hi)
          : context.analytics.trafficBatches(zone, lo, hi);
      drawn.set(key, batches);
    }
    return batches;
  };
  /** A `...Groups` dataset's resolver: the range checked against the plan, then the batches grouped. */
  const grouped =
    (dataset: Dataset, kind: 'security' | 'traffic') =>
    async (args: DatasetArgs, _context: unknown, info: GraphQLResolveInfo): Promise<GroupRow[]> => {
      await nextTurn();
      const { lo, hi } = checkedRange(context, zone, account, dataset, args, info);
      return groupEvents(
        batchesOf(kind, lo, hi),
        lo,
        hi,
        filterOf(args),
        timeFields(dataset),
        selectedDimensions(info),
        orderOf(args),
        args.limit,
        selectsField(info, 'quantiles'),
      );
    };
  return {
    zoneTag: zone.id,
    settings: () =>
      Object.fromEntries(
        DATASETS.map((dataset) => {
          const settings = DATASET_SETTINGS[account.plan][dataset];
          return [
            dataset,
            { ...settings, availableFields: settings.enabled ? AVAILABLE_FIELDS[dataset] : [] },
          ];
        }),
      ),
    firewallEventsAdaptive: async (args: DatasetArgs, _context: unknown, info: GraphQLResolveInfo) => {
      await nextTurn();
      const { lo, hi } = checkedRange(context, zone, account, 'firewallEventsAdaptive', args, info);
      const batches = batchesOf('security', lo, hi);
      return listEvents(
        batches,
        lo,
        hi,
        filterOf(args),
        timeFields('firewallEventsAdaptive'),
        orderOf(args),
        args.limit,
      );
    },
    firewallEventsAdaptiveGroups: grouped('firewallEventsAdaptiveGroups', 'security'),
    httpRequestsAdaptiveGroups: grouped('httpRequestsAdaptiveGroups', 'traffic'),
  };
}

interface ZonesArgs {
  filter?: { zoneTag?: string | null; zoneTag_gt?: string | null; zoneTag_in?: string[] | null } | null;
  limit?: number | null;
}

/**
 * `viewer.zones`: the zones by tag, in Cloudflare's (alphanumeric) order. A tag the token cannot read,
 * or that does not exist, refuses the whole query alike, so zone ids cannot be probed.
 */
function zones(context: QueryContext, args: ZonesArgs) {
  const filter = Object.fromEntries(Object.entries(args.filter ?? {}).filter(([, value]) => value != null));
  if (Object.keys(filter).length > 1)
    throw parsingError('a zone filter takes one of zoneTag, zoneTag_gt or zoneTag_in');
  const tooMany = () =>
    new AnalyticsRefusal('in combination, your request queries too many nodes, zones and accounts', 429);
  const readable = (zone: Zone | undefined): zone is Zone =>
    zone !== undefined && context.token.accountIds.includes(zone.accountId);

  let picked: Zone[];
  if (filter.zoneTag !== undefined || filter.zoneTag_in !== undefined) {
    const tags = [...new Set(filter.zoneTag_in ?? [filter.zoneTag as string])];
    if (tags.length > MAX_ZONES_PER_QUERY) throw tooMany();
    const refused = tags.filter((tag) => !readable(context.state.zones.get(tag)));
    if (refused.length > 0)
      throw new AnalyticsRefusal(`zones [${refused.join(' ')}] are not authorized`, 403, 'authz');
    picked = tags.map((tag) => context.state.zones.get(tag)!);
  } else {
    const limit = args.limit ?? MAX_ZONES_PER_QUERY;
    if (limit > MAX_ZONES_PER_QUERY) throw tooMany();
    const after = (filter.zoneTag_gt as string | undefined) ?? '';
    picked = [...context.state.zones.values()]
      .filter((zone) => readable(zone) && zone.id > after)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }
  return picked.sort((a, b) => (a.id < b.id ? -1 : 1)).map((zone) => zoneNode(context, zone));
}

interface GraphqlBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export function registerGraphqlRoutes(
  app: FastifyInstance,
  context: SandboxContext,
  rateLimiter: RateLimiter | null,
): void {
  const schema = analyticsSchema();

  app.post<{ Body: GraphqlBody | undefined }>('/graphql', async (request, reply) => {
    const value = bearerToken(request);
    const token = value === null ? undefined : context.state.tokens.get(value);
    if (!token || statusOf(token) !== 'active') return refuse(reply, 401, 'Unauthorized');
    // 300 queries per 5 minutes per token, on top of the REST budget the request already counted in.
    if (rateLimiter && rateLimiter.hit(token.value) !== null)
      return refuse(reply, 429, 'rate limiter budget depleted, try again after 5 minutes', 'budget');

    const body = request.body ?? {};
    const variables = body.variables ?? undefined;
    if (
      typeof body.query !== 'string' ||
      (variables !== undefined && (typeof variables !== 'object' || Array.isArray(variables))) ||
      (body.operationName != null && typeof body.operationName !== 'string')
    ) {
      return refuse(reply, 400, 'query contains error, please review it and retry');
    }

    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (error) {
      return refuse(
        reply,
        400,
        error instanceof GraphQLError ? error.message : 'query contains error, please review it and retry',
      );
    }
    const invalid = validate(schema, document, RULES);
    if (invalid.length > 0)
      return reply.status(400).send(errorBody(invalid.map((error) => ({ message: error.message }))));

    const queryContext: QueryContext = {
      state: context.state,
      analytics: context.analytics,
      token,
      now: Date.now(),
    };
    const result = await execute({
      schema,
      document,
      rootValue: { viewer: () => ({ zones: (args: ZonesArgs) => zones(queryContext, args) }) },
      variableValues: variables as Record<string, unknown> | undefined,
      operationName: (body.operationName as string | null | undefined) ?? undefined,
    });
    if (!result.errors || result.errors.length === 0) return reply.send({ data: result.data, errors: null });

    const refusals = result.errors
      .map((error) => error.originalError)
      .filter((error) => error instanceof AnalyticsRefusal);
    const unexpected = result.errors.find(
      (error) => error.originalError !== undefined && !(error.originalError instanceof AnalyticsRefusal),
    );
    if (unexpected) {
      request.log.error(unexpected.originalError);
      return refuse(reply, 500, 'Internal server error');
    }
    // Cloudflare fails the whole query when one part is refused.
    const status = refusals[0]?.status ?? 400;
    return reply.status(status).send(
      errorBody(
        result.errors.map((error) => ({
          message: error.message,
          path: error.path ?? null,
          code: error.originalError instanceof AnalyticsRefusal ? error.originalError.code : undefined,
        })),
      ),
    );
  });
}
