import { z } from 'zod';
import { ERROR_STATUS, errorBodySchema, type ErrorCode } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint: anyone, any signed-in person (the default), administrators, or a
 * registered server with its own key (and nothing else: no session or API key).
 */
export type EndpointAccess = 'public' | 'user' | 'admin' | 'server';

/**
 * One endpoint of the API, declared once: the server registers its route from it (Fastify checks
 * params, query, body and answers with these schemas), the OpenAPI document describes it, and the
 * web, the security suite and the bench call it by it.
 */
export interface Endpoint {
  method: HttpMethod;
  /** Fastify style: `/api/cloudflare/zones/:zone_id/dns`. */
  path: string;
  /** One line for the API reference. */
  summary: string;
  /** Defaults to 'user'. */
  access?: EndpointAccess;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Every answer by status: the success one, and the ErrorBody of each error the endpoint gives. */
  responses: Readonly<Record<number, z.ZodType>>;
  /**
   * The success answer is JSON the server serialised beforehand (a page asked for again and again is
   * kept as bytes): its schema documents it, and no serializer checks it on the way out.
   */
  preSerialized?: true;
  /**
   * Its cost grows with the data (a page or search of a 500,000-item mirror, a sync reading a whole
   * list or every zone from Cloudflare): the server runs a few of a person's at a time and queues the rest.
   */
  costly?: true;
  /** A POST that changes nothing (a preview): the audit trail, which records changes, leaves it out. */
  changesNothing?: true;
  /**
   * It destroys something that this call cannot give back: at Cloudflare ('cloudflare': its summary
   * says "at Cloudflare") or only in Guardian ('guardian'). Every DELETE is declared so, and every POST
   * that destroys; the summary starts with what it does ("Deletes", "Empties"...): destructive.test.ts.
   */
  destructive?: 'cloudflare' | 'guardian';
}

/** A resource's endpoints, with the tag the API reference groups them under. */
export type EndpointGroup<T extends Record<string, Endpoint>> = { [K in keyof T]: T[K] & { tag: string } };

export function endpointGroup<const T extends Record<string, Endpoint>>(
  tag: string,
  group: T,
): EndpointGroup<T> {
  return Object.fromEntries(
    Object.entries(group).map(([name, endpoint]) => [name, { ...endpoint, tag }]),
  ) as EndpointGroup<T>;
}

/** The answer of an endpoint that answers 204 without a body. */
export const noContentSchema = z.undefined().describe('No content.');

/** The ErrorBody answer of each of `codes`, keyed by its status: `...errorResponses('NOT_FOUND')`. */
export function errorResponses(...codes: ErrorCode[]): Record<number, typeof errorBodySchema> {
  return Object.fromEntries(codes.map((code) => [ERROR_STATUS[code], errorBodySchema]));
}

/**
 * The errors any route under /api can answer: a bad request (a NUL character, an undecodable URL, a
 * body that is not JSON...), too many requests, a failure, the database unavailable.
 */
const ANY_ROUTE_ERRORS: ErrorCode[] = ['BAD_REQUEST', 'RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE'];

/** The errors of a public route, plus `more`. */
export function publicErrors(...more: ErrorCode[]) {
  return errorResponses(...ANY_ROUTE_ERRORS, ...more);
}

/** The errors of a route for signed-in people (401 without a valid session), plus `more`. */
export function signedInErrors(...more: ErrorCode[]) {
  return errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED', ...more);
}

/** The errors of a route that calls Cloudflare: the token refused (403), not found, a conflict, down (502). */
export function cloudflareErrors(...more: ErrorCode[]) {
  return signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'UPSTREAM', ...more);
}
