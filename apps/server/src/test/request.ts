import { pathOf, type Endpoint } from '@guardian/contract';
import type { InjectOptions } from 'fastify';

/** What a test fills in to call an endpoint: its path params, its query and its body. */
export interface EndpointInput {
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  payload?: unknown;
}

/**
 * The method and URL of a call to an endpoint, from its declaration (and the body, if any):
 * `app.inject({ ...requestTo(zoneEndpoints.sync), headers })`.
 */
export function requestTo(
  endpoint: Pick<Endpoint, 'method' | 'path'>,
  { params, query, payload }: EndpointInput = {},
): InjectOptions & { url: string } {
  const search = query ? `?${new URLSearchParams(query)}` : '';
  return {
    method: endpoint.method,
    url: `${pathOf(endpoint, params)}${search}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  };
}

/**
 * What a 400 says about the request, for tests that look for a word in it: its message and the fields
 * its errors name (`errors[].field`; messages never carry the keys themselves).
 */
export function refusalOf(body: { message: string; errors: { message: string; field?: string }[] }): string {
  return [body.message, ...body.errors.map((error) => `${error.field ?? ''} ${error.message}`)].join(' | ');
}
