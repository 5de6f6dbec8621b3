import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { pathParams, type RouteEntry } from '../route-table';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import {
  apiRoutes,
  idForms,
  isErrorBody,
  ownerOrder,
  paramKind,
  routeShape,
  sampleRequest,
  seedEstate,
  worldFingerprint,
  type Estate,
  type WorldFingerprint,
} from './support';

/**
 * Property-based bad input over every /api route of the route table (a route added later is fuzzed
 * too). For each route, fast-check generates requests around the route's valid sample: path ids,
 * query strings and bodies that are well-formed or not (wrong types, missing and extra fields, huge
 * strings, unicode, NUL and lone surrogates, SQL and script fragments, prototype keys, deep JSON,
 * invalid JSON, wrong content types). Every answer must be a 2xx, or a 4xx with the contract's JSON
 * error body; never a 5xx. After every refused request the database (every row of every table) and
 * the sandbox (every account, list, item, zone, record and rule) must be exactly as before.
 *
 * FUZZ_RUNS sets the runs per route (default 40: about 1,500 requests over today's routes, well under
 * a minute on a quiet machine). FUZZ_SEED replays a failure.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 80);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let ctx: CloudflareTestContext;
let estate: Estate;
/** Warnings and errors the app logged while fuzzed. */
const logged: { msg: string; err?: { message?: string; code?: string }; req?: { url?: string } }[] = [];

beforeAll(async () => {
  ctx = await createCloudflareTestContext({
    deps: {
      logger: createLogger(
        { logLevel: 'warn' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
              logged.push(JSON.parse(line));
            done();
          },
        }),
      ),
    },
    // Sign-in fuzzing must reach the password check, not the limiter.
    config: {
      loginRateLimit: {
        windowSeconds: 900,
        maxFailuresPerEmail: 1_000_000,
        maxFailuresPerAddress: 1_000_000,
      },
    },
  });
  estate = await seedEstate(ctx, await ctx.createUser(), 'fuzz');
}, 120_000);
afterAll(() => ctx?.close());

const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFFx\uD800',
  '\u202Egnp.exe',
  '\uFEFF',
  'İıŞşĞğÇçÖöÜü',
  '🔥💥🛡️',
  'ﷺ',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(10)',
  '" OR ""="',
  '\\',
  "\\'",
  '%',
  '_',
  '%00',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '..',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '-9223372036854775809',
  '0x7fffffff',
  '1.5',
  '10.0.0.1',
  '10.0.0.0/8',
  '256.256.256.256',
  '1.2.3.4/33',
  '::1',
  '2001:db8::/129',
  '*',
  '@',
  'x'.repeat(300),
  'y'.repeat(70_000),
  '\n\r\t',
  'a\nb: c',
];

const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1_000, maxLength: 3_000 }) },
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -0, 0.5) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant({ __proto__: { admin: true } }) },
);

/** Percent-encodes UTF-8 bytes, so lone surrogates and NULs travel as the bytes a client would send. */
function pct(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Path segments sent as they are: broken escapes, traversal, encoded slashes. */
const RAW_SEGMENTS = [
  '%ZZ',
  '%',
  '%C0%AF',
  '%2e%2e',
  '%2F',
  '%2e%2e%2fadmin',
  '%00',
  '%E0%80%80',
  '.',
  '..%2F..%2F',
  ';x=1',
  '%20',
];

const pathId = fc.oneof(
  { weight: 3, arbitrary: nastyString.filter((text) => text.length < 5_000).map(pct) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
  },
  { weight: 1, arbitrary: fc.nat().map(String) },
);

const RAW_QUERIES = [
  'search=a&search=b',
  'search[]=x',
  '__proto__[search]=x',
  'constructor[prototype][admin]=1',
  'search=%ZZ',
  '&&&=&=',
  'search',
  `search=${'z'.repeat(10_000)}`,
  'page=-1&per_page=1000000',
  'filter_id=',
  'filter_id=%00',
];
const queryString = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: fc
      .dictionary(
        fc.constantFrom('search', 'page', 'per_page', 'filter_id', 'q', 'cursor', 'token', '__proto__'),
        nastyString.filter((text) => text.length < 5_000),
        { maxKeys: 3 },
      )
      .map((query) =>
        Object.entries(query)
          .map(([key, value]) => `${pct(key)}=${pct(value)}`)
          .join('&'),
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
);

function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}{"__proto__":{"x":1}}${'}'.repeat(depth)}`;
}

const RAW_BODIES = [
  '{"email":',
  '{',
  ']',
  'null',
  '"text"',
  '12',
  'true',
  '[]',
  '{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '\u0000',
  '{"a":1,"a":2}',
  '\uFEFF{}',
  "{'single': 'quotes'}",
  '{"ip": "1.2.3.4", "comment": "\\ud800"}',
];

interface RawBody {
  text: string;
  contentType: string | undefined;
}

const rawBody: fc.Arbitrary<RawBody> = fc.record({
  text: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 100, max: 100_000 }),
          fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>,
        )
        .map(([depth, kind]) => deepJson(depth, kind)),
    },
    { weight: 1, arbitrary: fc.constant(JSON.stringify({ big: 'b'.repeat(1_200_000) })) },
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    undefined,
  ),
});

/** The sample body with some fields dropped, replaced, or added. */
function mutations(sample: unknown): fc.Arbitrary<unknown> {
  const target = Array.isArray(sample) ? sample[0] : sample;
  if (!target || typeof target !== 'object') return nastyValue;
  const keys = [...Object.keys(target), '__proto__', 'constructor', 'id', 'user_id', 'level', 'extra'];
  const mutated = fc
    .array(fc.tuple(fc.constantFrom(...keys), fc.oneof(nastyValue, fc.constant(undefined))), {
      minLength: 1,
      maxLength: 4,
    })
    .map((changes) => {
      const copy: Record<string, unknown> = structuredClone(target as Record<string, unknown>);
      for (const [key, value] of changes) {
        if (value === undefined) delete copy[key];
        else
          Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
      }
      return Array.isArray(sample) ? [copy, ...sample.slice(1)] : copy;
    });
  return Array.isArray(sample)
    ? fc.oneof(
        mutated,
        fc.constant([]),
        fc.array(nastyValue, { maxLength: 3 }),
        fc.constant(Array.from({ length: 2_000 }, () => sample[0])),
      )
    : mutated;
}

interface FuzzRequest {
  ids: (string | null)[];
  query: string;
  body: { json: unknown } | { raw: RawBody } | null;
}

function requests(
  route: RouteEntry,
  sample: { payload?: unknown; query?: Record<string, string> },
): fc.Arbitrary<FuzzRequest> {
  const params = pathParams(route.url);
  // null: the estate's real id. Deletes always get at least one bad id, so the estate stays whole.
  let ids: fc.Arbitrary<(string | null)[]> = fc.tuple(
    ...params.map(() => fc.option(pathId, { freq: 2, nil: null })),
  );
  if (route.method === 'DELETE' && params.length > 0)
    ids = ids.filter((values) => values.some((value) => value !== null));
  const sampleQuery = new URLSearchParams(sample.query).toString();
  const body = fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant({ json: sample.payload ?? {} }) },
    { weight: 5, arbitrary: mutations(sample.payload).map((json) => ({ json })) },
    { weight: 2, arbitrary: nastyValue.map((json) => ({ json })) },
    { weight: 2, arbitrary: rawBody.map((raw) => ({ raw })) },
  );
  return fc.record({
    ids,
    query: fc.oneof(
      { weight: 1, arbitrary: fc.constant(sampleQuery) },
      { weight: 2, arbitrary: queryString },
    ),
    body:
      route.method === 'GET'
        ? fc.oneof(
            fc.constant(null),
            rawBody.map((raw) => ({ raw })),
          )
        : body,
  });
}

function urlOf(route: RouteEntry, request: FuzzRequest): string {
  const params = pathParams(route.url);
  let url = route.url;
  params.forEach((param, index) => {
    const id = request.ids[index] ?? pct(idForms(estate, paramKind(route.url, param))[0]!);
    url = url.replace(`:${param}`, id);
  });
  return request.query ? `${url}?${request.query}` : url;
}

function same(a: WorldFingerprint, b: WorldFingerprint): boolean {
  return JSON.stringify(a.db) === JSON.stringify(b.db) && a.sandbox === b.sandbox;
}

describe('bad input on every /api route', () => {
  it('answers 2xx or a 4xx JSON message, never 5xx, and a refused request changes nothing', async () => {
    const failures: string[] = [];
    let sent = 0;
    // Collection-wide destructive actions last, so the estate is whole for the others.
    const routes = ownerOrder(apiRoutes(ctx.app));
    for (const route of routes) {
      const sample = await sampleRequest(ctx, route, estate);
      const label = `${route.method} ${routeShape(route.url)}`;
      let before = await worldFingerprint(ctx);
      try {
        await fc.assert(
          fc.asyncProperty(requests(route, sample), async (request) => {
            const url = urlOf(route, request);
            const headers: Record<string, string> =
              route.access === 'public' ? {} : { ...estate.user.headers };
            let payload: string | undefined;
            if (request.body && 'json' in request.body) {
              payload = JSON.stringify(request.body.json);
              headers['content-type'] = 'application/json';
            } else if (request.body && 'raw' in request.body) {
              payload = request.body.raw.text;
              if (request.body.raw.contentType) headers['content-type'] = request.body.raw.contentType;
            }
            sent += 1;
            const response = await ctx.app.inject({ method: route.method as 'POST', url, headers, payload });
            const where = `${label} ${url.slice(0, 200)} body ${String(payload).slice(0, 200)}`;
            if (response.statusCode >= 500)
              throw new Error(`${where}: ${response.statusCode} ${response.body.slice(0, 300)}`);
            if (response.statusCode >= 400) {
              let body: unknown;
              try {
                body = response.json();
              } catch {
                body = undefined;
              }
              if (!isErrorBody(body))
                throw new Error(
                  `${where}: ${response.statusCode} without a JSON message: ${response.body.slice(0, 200)}`,
                );
              const after = await worldFingerprint(ctx);
              if (!same(before, after))
                throw new Error(`${where}: refused with ${response.statusCode} but changed the world`);
            } else {
              if (response.body !== '' && !/json/.test(String(response.headers['content-type']))) {
                throw new Error(
                  `${where}: ${response.statusCode} answered ${String(response.headers['content-type'])}`,
                );
              }
              before = await worldFingerprint(ctx);
            }
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      } catch (err) {
        const lines = (err as Error).message.split('\n');
        const cause = lines.find((line) => line.startsWith('Got error:')) ?? lines.slice(0, 4).join(' ');
        failures.push(
          `${label}: ${lines[0]} ${lines.find((line) => line.startsWith('{ seed')) ?? ''}\n  ${cause}`,
        );
        before = await worldFingerprint(ctx);
      }
    }
    console.info(`fuzz: ${sent} requests over ${routes.length} routes`);
    expect(sent).toBeGreaterThan(routes.length * Math.min(RUNS, 10));
    expect(failures).toEqual([]);
  }, 300_000);

  it('bad input was refused by validation, not by the database', () => {
    // errors.ts turns a PostgreSQL data exception (class 22) into a 400 as a safety net, and logs it:
    // each one is a value that validation should have refused with a message naming the field.
    const refusedByDatabase = logged
      .filter((entry) => entry.msg === 'The database refused a value that validation let through')
      .map((entry) => `${entry.err?.code} ${entry.err?.message}`);
    expect([...new Set(refusedByDatabase)]).toEqual([]);
  });
});
