import Cloudflare from 'cloudflare';
import { z } from 'zod';
import { AppError } from '../app-error';
import { isLocalAnswer } from './client';
import { cloudflareErrorToAppError, safeUpstreamText } from './errors';

/*
 * Cloudflare's GraphQL Analytics API (`POST /graphql`). The official SDK has no method for it, so a
 * query goes through the SDK's generic `post` on the gateway's analytics client (client.ts): the
 * account's token, its REST budget and its analytics budget (300 queries per 5 minutes), the timeouts,
 * the bounded answer and the credential-free errors of every other call.
 *
 * Queries are typed string constants with every value passed as a variable, not built by a library:
 * they are fixed at build time (no user text is ever spliced into one), a client library
 * (graphql-request, urql) would bring a second transport beside the gateway's, and a typed document
 * builder (gql.tada, codegen) needs Cloudflare's whole introspected schema in the repository for the
 * handful of fields the reports read; the zod schema of each answer checks what comes back instead.
 */

/** Cloudflare answers a zone-scoped query for at most this many zones (`zoneTag_in`). */
export const MAX_ZONES_PER_QUERY = 10;

/** The zone ids in groups of MAX_ZONES_PER_QUERY: N zones take ceil(N / 10) queries. */
export function zoneBatches(zoneTags: readonly string[]): string[][] {
  const batches: string[][] = [];
  for (let at = 0; at < zoneTags.length; at += MAX_ZONES_PER_QUERY)
    batches.push(zoneTags.slice(at, at + MAX_ZONES_PER_QUERY));
  return batches;
}

/** Why Cloudflare refused an analytics query, as the reports tell a person. */
export type AnalyticsRefusalReason =
  | 'range' // older than the plan keeps, or wider than one query may ask
  | 'plan' // the dataset is not on the zone's plan
  | 'access' // the token may not read the zone (or its analytics)
  | 'budget' // Cloudflare's 300 queries per 5 minutes are used up
  | 'query'; // anything else Cloudflare refused

/** A refusal in GraphQL's `errors` (with HTTP 200 or an error status), as Guardian's own error. */
export class AnalyticsRefusal extends AppError {
  constructor(
    readonly reason: AnalyticsRefusalReason,
    code: ConstructorParameters<typeof AppError>[0],
    message: string,
    details: ConstructorParameters<typeof AppError>[2] = {},
  ) {
    super(code, message, details);
  }
}

const graphqlErrorSchema = z.object({
  message: z.string(),
  extensions: z.object({ code: z.string().optional() }).loose().nullish(),
});

/** The envelope of every answer: `data` is checked by each query's own schema. */
const envelopeSchema = z.object({
  data: z.unknown().optional(),
  // Read loosely: only the first error is told, and a malformed one is still a refusal.
  errors: z.array(z.unknown()).nullish(),
});

/** Cloudflare's budget refusal says "try again after 5 minutes". */
const BUDGET_RETRY_SECONDS = 300;

/** Cloudflare's GraphQL errors as the person reads them. */
export function analyticsRefusal(errors: readonly unknown[]): AnalyticsRefusal {
  const first = graphqlErrorSchema.safeParse(errors[0]);
  const text = first.success ? safeUpstreamText(first.data.message) : '';
  const code = first.success ? first.data.extensions?.code : undefined;
  const words = text.length > 0 ? text : 'no reason given';
  if (code === 'budget' || /budget depleted/i.test(text))
    return new AnalyticsRefusal(
      'budget',
      'RATE_LIMITED',
      'Cloudflare is rate limiting analytics queries for this account (300 per 5 minutes). Please try again in 5 minutes.',
      { retryAfterSeconds: BUDGET_RETRY_SECONDS },
    );
  if (/cannot request data older than|time range is too large/i.test(text))
    return new AnalyticsRefusal(
      'range',
      'BAD_REQUEST',
      `Cloudflare does not keep analytics for this range on the zone's plan: ${words}`,
    );
  if (/does not have access to the path/i.test(text))
    return new AnalyticsRefusal(
      'plan',
      'FORBIDDEN',
      `This zone's plan does not include these analytics: ${words}`,
    );
  if (code === 'authz' || /not authorized|unauthorized/i.test(text))
    return new AnalyticsRefusal(
      'access',
      'FORBIDDEN',
      `Cloudflare did not let this account's API token read the analytics (it needs Analytics Read): ${words}`,
    );
  return new AnalyticsRefusal('query', 'BAD_REQUEST', `Cloudflare refused the analytics query: ${words}`);
}

/** GraphQL's `errors` in a refused answer's body, when it has them. */
function graphqlErrorsOf(err: InstanceType<typeof Cloudflare.APIError>): unknown[] | undefined {
  const body = envelopeSchema.safeParse(err.error);
  return body.success && body.data.errors && body.data.errors.length > 0 ? body.data.errors : undefined;
}

/**
 * Sends one GraphQL Analytics query and answers its `data`, checked by `dataSchema`. Every failure is
 * an AppError: GraphQL errors (with HTTP 200 too) an AnalyticsRefusal, the transport's own as any call's.
 */
export async function queryAnalytics<T extends z.ZodType>(
  client: Cloudflare,
  query: string,
  variables: Record<string, unknown>,
  dataSchema: T,
): Promise<z.infer<T>> {
  let answer: unknown;
  try {
    answer = await client.post('/graphql', { body: { query, variables } });
  } catch (err) {
    if (err instanceof Cloudflare.APIError && !(err instanceof Cloudflare.APIConnectionError)) {
      const errors = graphqlErrorsOf(err);
      // A 5xx, the console's own answer (its budget, too large, too slow) and the REST budget's 429
      // are told as any call's.
      if (errors && !isLocalAnswer(err.headers) && err.status !== undefined && err.status < 500) {
        if (err.status === 401)
          throw new AnalyticsRefusal('access', 'FORBIDDEN', "Cloudflare rejected the account's API token.");
        const refusal = analyticsRefusal(errors);
        if (err.status !== 429 || refusal.reason === 'budget') throw refusal;
      }
    }
    throw cloudflareErrorToAppError(err) ?? err;
  }
  const envelope = envelopeSchema.safeParse(answer);
  if (!envelope.success) throw unusable();
  // Cloudflare fails a query with HTTP 200 and GraphQL's errors as often as with an error status.
  if (envelope.data.errors && envelope.data.errors.length > 0) throw analyticsRefusal(envelope.data.errors);
  const data = dataSchema.safeParse(envelope.data.data);
  if (!data.success) throw unusable();
  return data.data;
}

const unusable = () =>
  new AppError(
    'UPSTREAM',
    "Cloudflare's analytics answer could not be used (it is not in the expected shape).",
  );

const settingsNodeSchema = z.object({
  enabled: z.boolean(),
  /** Seconds: the widest range one query may ask. */
  maxDuration: z.number().int().nonnegative(),
  /** Seconds: how far back the plan keeps the dataset. */
  notOlderThan: z.number().int().nonnegative(),
  maxPageSize: z.number().int().nonnegative(),
});
export type DatasetSettings = z.infer<typeof settingsNodeSchema>;

/** The datasets the reports read. */
export const ANALYTICS_DATASETS = [
  'firewallEventsAdaptive',
  'firewallEventsAdaptiveGroups',
  'httpRequestsAdaptiveGroups',
] as const;
export type AnalyticsDataset = (typeof ANALYTICS_DATASETS)[number];

const SETTINGS_QUERY = `query ZoneAnalyticsSettings($zoneTags: [string!]) {
  viewer {
    zones(filter: { zoneTag_in: $zoneTags }) {
      zoneTag
      settings {
        ${ANALYTICS_DATASETS.map((dataset) => `${dataset} { enabled maxDuration notOlderThan maxPageSize }`).join('\n        ')}
      }
    }
  }
}`;

const settingsDataSchema = z.object({
  viewer: z.object({
    zones: z
      .array(
        z.object({
          zoneTag: z.string().max(64),
          settings: z.object(
            Object.fromEntries(
              ANALYTICS_DATASETS.map((dataset) => [dataset, settingsNodeSchema.nullable()]),
            ) as {
              [K in AnalyticsDataset]: z.ZodNullable<typeof settingsNodeSchema>;
            },
          ),
        }),
      )
      .max(MAX_ZONES_PER_QUERY),
  }),
});

/** Each dataset's limits on one zone's plan (null: Cloudflare does not offer it there). */
export type ZoneAnalyticsSettings = Record<AnalyticsDataset, DatasetSettings | null>;

/**
 * What each zone's plan allows of each dataset (Cloudflare's `settings` node): one query per 10 zones.
 * All zones must be readable by the client's token.
 */
export async function zoneAnalyticsSettings(
  client: Cloudflare,
  zoneTags: readonly string[],
): Promise<Map<string, ZoneAnalyticsSettings>> {
  const settings = new Map<string, ZoneAnalyticsSettings>();
  for (const batch of zoneBatches(zoneTags)) {
    const data = await queryAnalytics(client, SETTINGS_QUERY, { zoneTags: batch }, settingsDataSchema);
    for (const zone of data.viewer.zones)
      if (batch.includes(zone.zoneTag)) settings.set(zone.zoneTag, zone.settings);
  }
  return settings;
}
