import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { registerEndpointCompilers, route } from './endpoint-route';

/**
 * The checks of a route's params and query: a repeat of the same text is answered with what its
 * schemas output the first time, each request with a copy of its own.
 */

const params = z.object({ list_id: z.string().trim().min(1) });
const query = z.object({
  search: z.string().trim().default(''),
  page: z.coerce.number().int().min(1).default(1),
});
const ids = z.object({ ids: z.string().transform((text) => text.split(',')) });
const items = {
  method: 'GET',
  path: '/api/test/:list_id/items',
  summary: 'A test route.',
  params,
  query,
  responses: { 200: z.object({}).passthrough() },
  tag: 'Test',
} as const;
const split = { ...items, path: '/api/test/split', params: undefined, query: ids } as const;

let app: FastifyInstance;
const checks = { params: vi.spyOn(params, 'safeParse'), query: vi.spyOn(query, 'safeParse') };
const idChecks = vi.spyOn(ids, 'safeParse');

beforeAll(async () => {
  app = Fastify();
  registerEndpointCompilers(app);
  route(app, items, async (request) => {
    const seen = { params: { ...request.params }, query: { ...request.query } };
    // A handler that changes what it got changes its own request's copy only.
    (request.query as { page: number }).page = 999;
    return seen;
  });
  route(app, split, async (request) => {
    const seen = { ids: [...request.query.ids] };
    request.query.ids.push('changed');
    return seen;
  });
  await app.ready();
});
afterAll(async () => app?.close());
beforeEach(() => vi.clearAllMocks());

const get = async (url: string) => {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() as unknown };
};

describe('checked params and queries', () => {
  it('answers a repeat with the first output, parsed once, a copy for each request', async () => {
    const first = await get('/api/test/%20abc%20/items?search=%20honeypot%20');
    const again = await get('/api/test/%20abc%20/items?search=%20honeypot%20');
    expect(first).toEqual({
      status: 200,
      body: { params: { list_id: 'abc' }, query: { search: 'honeypot', page: 1 } },
    });
    expect(again).toEqual(first);
    expect(checks.params).toHaveBeenCalledTimes(1);
    expect(checks.query).toHaveBeenCalledTimes(1);

    // Another text is its own: parsed, then kept too.
    expect((await get('/api/test/abc/items?page=2')).body).toEqual({
      params: { list_id: 'abc' },
      query: { search: '', page: 2 },
    });
    expect(checks.query).toHaveBeenCalledTimes(2);
  });

  it('refuses a refused query every time', async () => {
    expect((await get('/api/test/abc/items?page=0')).status).toBe(400);
    expect((await get('/api/test/abc/items?page=0')).status).toBe(400);
    expect(checks.query).toHaveBeenCalledTimes(2);
  });

  it('does not keep an output holding an array or an object, nor repeated names', async () => {
    for (let i = 0; i < 2; i++)
      expect((await get('/api/test/split?ids=a,b')).body).toEqual({ ids: ['a', 'b'] });
    expect(idChecks).toHaveBeenCalledTimes(2);
    await get('/api/test/abc/items?search=a&search=b');
    await get('/api/test/abc/items?search=a&search=b');
    expect(checks.query).toHaveBeenCalledTimes(2);
  });
});

describe("the answer's status", () => {
  const made = z.object({ id: z.number() });
  const create = {
    method: 'POST',
    path: '/api/test/things',
    summary: 'A test route that makes a thing.',
    responses: { 201: made },
    tag: 'Test',
  } as const;
  const jobOrDone = { ...create, path: '/api/test/job', responses: { 200: made, 202: made } } as const;

  it("is the endpoint's one declared success status, unless the handler sets another", async () => {
    const own = Fastify();
    registerEndpointCompilers(own);
    route(own, create, async () => ({ id: 7, secret: 'not sent' }));
    route(own, jobOrDone, async (_request, reply) => reply.code(202).send({ id: 8 }));
    route(own, { ...jobOrDone, path: '/api/test/done' }, async () => ({ id: 9 }));
    const answer = async (url: string) => {
      const response = await own.inject({ method: 'POST', url });
      return { status: response.statusCode, body: response.json() as unknown };
    };
    expect(await answer('/api/test/things')).toEqual({ status: 201, body: { id: 7 } });
    expect(await answer('/api/test/job')).toEqual({ status: 202, body: { id: 8 } });
    expect(await answer('/api/test/done')).toEqual({ status: 200, body: { id: 9 } });
    await own.close();
  });
});
