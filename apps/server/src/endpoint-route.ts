import { endpoints, type Endpoint } from '@guardian/contract';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifySchema,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import type { ZodType } from 'zod';
import { sendChecked, type Checked } from './cloudflare/create-once';

/**
 * Fastify checks an endpoint's params, query and body with its Zod schemas and hands the handler what
 * they output (defaults filled in, text trimmed). A failure stays Zod's own ZodError, so the error
 * handler words it as it words every validation (describeZodError), issue paths intact.
 *
 * Params and queries repeat (a list's page asked again, the same list's id): what their schemas output
 * is kept by their text (`keptChecks`), so a repeat is not parsed again. So a params or query schema
 * answers from its input alone (no clock, no setting): a check of the time belongs in a body.
 */
const validatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  const check = (data: unknown) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };
  if (httpPart !== 'params' && httpPart !== 'querystring') return check;
  const part = `${nextPart++}\u0000`;
  return (data) => {
    const text = inputText(data);
    if (text === undefined) return check(data);
    const key = part + text;
    const kept = keptChecks.get(key);
    // Copies: a handler's change to its request's params or query reaches no other request.
    if (kept) return { value: { ...kept } };
    const outcome = check(data);
    if (isFlat(outcome.value)) keptChecks.set(key, { ...outcome.value });
    return outcome;
  };
};

/** The longest params or query text (names and values) whose checked value is kept. */
const KEPT_INPUT_MAX = 512;
/** Checked params and queries, by their route part and text: 10,000, and about 2 MB of keys, at most. */
const keptChecks = new LRUCache<string, Record<string, unknown>>({
  max: 10_000,
  maxSize: 1_000_000,
  sizeCalculation: (_value, key) => key.length,
});
let nextPart = 0;

/** Names and values, each length-prefixed (no two inputs share a text); undefined unless all strings, short. */
function inputText(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  let text = '';
  for (const name in data) {
    const value = (data as Record<string, unknown>)[name];
    if (typeof value !== 'string') return undefined;
    text += `${name.length}:${name}${value.length}:${value}`;
    if (text.length > KEPT_INPUT_MAX) return undefined;
  }
  return text;
}

/** An object of plain values only, whose copy shares nothing with it. */
function isFlat(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const field of Object.values(value)) {
    if (typeof field === 'object' ? field !== null : typeof field === 'function') return false;
  }
  return true;
}

/** Zod validation of requests and of answers (fastify-type-provider-zod) for every route with schemas. */
export function registerEndpointCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}

type Declared = Endpoint & { tag: string };

/** What Fastify's type provider reads: the answers are typed unless they are sent as bytes. */
interface SchemaOf<E extends Endpoint> {
  params: E['params'];
  querystring: E['query'];
  body: E['body'];
  response: E extends { preSerialized: true } ? undefined : E['responses'];
}

/** A handler whose request and reply are typed by the endpoint's schemas. */
export type EndpointHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  ZodTypeProvider
>;

type ParamName<E extends Endpoint> =
  E['params'] extends ZodType<infer Params> ? keyof Params & string : never;

export interface EndpointRouteOptions<E extends Endpoint> {
  /** The path params whose ownership the route checks (see FastifyContextConfig.owns). */
  owns?: readonly ParamName<E>[];
  /** The largest body this route takes, in bytes, when it differs from the app's (an import's text). */
  bodyLimit?: number;
}

/**
 * A pre-serialised answer is JSON text: Fastify sends a string as it is and never calls a serializer
 * for it, so this one only speaks up when a handler returns anything else.
 */
const bytesOnly = (url: string) => () => {
  throw new Error(`${url} answers JSON it serialised itself: send a string.`);
};

/** The serializers of a pre-serialised endpoint: none for its success answer, Zod's for its errors. */
const preSerializedAnswers: FastifySerializerCompiler<FastifySchema> = (routeSchema) =>
  Number(routeSchema.httpStatus) < 300
    ? bytesOnly(routeSchema.url)
    : serializerCompiler(routeSchema as Parameters<typeof serializerCompiler>[0]);

/**
 * Registers an endpoint's route from its declaration: `route(app, zoneEndpoints.remove, handler,
 * { owns: ['zone_id'] })`. Access, ownership and cost go to the route's config (auth guard, route
 * table, request limits). The answer has the endpoint's success status when it declares one (a 201's
 * handler returns what it made); a handler may set another.
 */
export function route<E extends Declared>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  routeOptions: EndpointRouteOptions<E> = {},
): void {
  const options: RouteOptions = {
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      // Only the parts an endpoint declares: Fastify warns about a part given as undefined.
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.body && { body: endpoint.body }),
      response: endpoint.responses,
      summary: endpoint.summary,
      tags: [endpoint.tag],
      ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }] }),
    },
    ...(endpoint.preSerialized ? { serializerCompiler: preSerializedAnswers } : {}),
    ...(routeOptions.bodyLimit === undefined ? {} : { bodyLimit: routeOptions.bodyLimit }),
    config: { access: endpoint.access, owns: routeOptions.owns, costly: endpoint.costly },
    handler: withDeclaredStatus(endpoint, handler as RouteHandlerMethod),
  };
  app.route(options);
}

/** The request a handler of the endpoint receives, typed by its schemas. */
export type EndpointRequest<E extends Endpoint> = Parameters<EndpointHandler<E>>[0];

/** The 2xx an endpoint declares. */
const successStatusesOf = (endpoint: Endpoint) =>
  Object.keys(endpoint.responses)
    .map(Number)
    .filter((status) => status < 300);

/** The handler, answering with the endpoint's one declared success status when that is not Fastify's 200. */
function withDeclaredStatus(endpoint: Endpoint, handler: RouteHandlerMethod): RouteHandlerMethod {
  const [status, ...others] = successStatusesOf(endpoint);
  if (status === undefined || status === 200 || others.length > 0) return handler;
  return function (request, reply) {
    reply.code(status);
    return handler.call(this, request, reply);
  };
}

/** The status of an endpoint's success answer: the one 2xx it declares. */
function successStatusOf(endpoint: Endpoint): number {
  const statuses = successStatusesOf(endpoint);
  if (statuses.length !== 1)
    throw new Error(
      `${endpoint.method} ${endpoint.path} declares ${statuses.length} success answers, not one.`,
    );
  return statuses[0]!;
}

/**
 * Registers an endpoint that changes something at Cloudflare: `change` gives its checked value, sent
 * with the endpoint's success status (set by `route`; one only, refused here at registration), and the
 * outcome header when Guardian had to check (sendChecked).
 */
export function checkedRoute<E extends Declared>(
  app: FastifyInstance,
  endpoint: E,
  change: (request: EndpointRequest<E>) => Promise<Checked<unknown>>,
  routeOptions: EndpointRouteOptions<E> = {},
): void {
  successStatusOf(endpoint);
  const handler = async (request: EndpointRequest<E>, reply: FastifyReply) =>
    sendChecked(reply, await change(request));
  // The value is checked on its way out by the endpoint's response schema, as every route's answer is.
  route(app, endpoint, handler as EndpointHandler<E>, routeOptions);
}

/**
 * Registers an endpoint that answers 204 with no body (a delete, a revoke, a sign-out): `work` does it,
 * and its value, if any, is not sent.
 */
export function noContentRoute<E extends Declared>(
  app: FastifyInstance,
  endpoint: E,
  work: (request: EndpointRequest<E>) => Promise<unknown>,
  routeOptions: EndpointRouteOptions<E> = {},
): void {
  // The 204 is the endpoint's one declared success status, set by `route`.
  if (successStatusOf(endpoint) !== 204)
    throw new Error(
      `${endpoint.method} ${endpoint.path} does not declare 204, so it cannot answer without a body.`,
    );
  const handler = async (request: EndpointRequest<E>, reply: FastifyReply) => {
    await work(request);
    return reply.send();
  };
  route(app, endpoint, handler as EndpointHandler<E>, routeOptions);
}

/** Every declared endpoint's name, `group.name` (e.g. `banListItems.add`), by "METHOD /path". */
const ENDPOINT_NAMES = new Map<string, string>(
  Object.entries(endpoints).flatMap(([group, members]) =>
    Object.entries(members).map(([name, endpoint]) => [
      `${endpoint.method} ${endpoint.path}`,
      `${group}.${name}`,
    ]),
  ),
);

/** The name of the endpoint a route was registered from (undefined for a route that is not declared). */
export function endpointNameOf(method: string, url: string | undefined): string | undefined {
  return url === undefined ? undefined : ENDPOINT_NAMES.get(`${method} ${url}`);
}
