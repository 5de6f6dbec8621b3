import { endpoints, type Endpoint } from '@guardian/contract';
import type {
  ContextConfigDefault,
  FastifyInstance,
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
import type { ZodType } from 'zod';

/**
 * Fastify checks an endpoint's params, query and body with its Zod schemas and hands the handler what
 * they output (defaults filled in, text trimmed). A failure stays Zod's own ZodError, so the error
 * handler words it as it words every validation (describeZodError), issue paths intact.
 */
const validatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };

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
 * table, request limits).
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
    handler: handler as RouteHandlerMethod,
  };
  app.route(options);
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
