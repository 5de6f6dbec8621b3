import {
  accountEndpoints,
  allEndpoints,
  API_DOCS_PATH,
  banListItemsPageSchema,
  banListItemSchema,
  ipSearchAnswerSchema,
  ipSearchFoundListSchema,
  ipSearchMatchSchema,
  zoneSchema,
} from '@guardian/contract';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isApiPath } from '../../route-table';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { requestTo } from '../../test/request';

let ctx: CloudflareTestContext;
let user: TestUser;
beforeAll(async () => {
  ctx = await createCloudflareTestContext();
  user = await ctx.createUser();
});
afterAll(() => ctx?.close());

const documentOf = async () =>
  (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json', headers: user.headers })).json() as {
    openapi: string;
    paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  };

/** The API's routes as the app registered them (not the reference page's own files). */
const apiRoutes = () =>
  ctx.app.routeTable
    .filter((route) => isApiPath(route.url) && route.method !== 'HEAD')
    .filter((route) => route.url !== API_DOCS_PATH && !route.url.startsWith(`${API_DOCS_PATH}/`));

describe('the OpenAPI document', () => {
  it('is for signed-in people', async () => {
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Authentication required.' });
    const signedIn = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json', headers: user.headers });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
  });

  it('holds every registered /api route, and the app registers exactly the endpoint table', async () => {
    const { paths } = await documentOf();
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const registered = apiRoutes().map(
      (route) => `${route.method} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`,
    );
    expect(registered.length).toBeGreaterThanOrEqual(30);
    expect(documented.sort()).toEqual(registered.sort());
    expect(
      apiRoutes()
        .map((route) => `${route.method} ${route.url}`)
        .sort(),
    ).toEqual(allEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort());
  });

  it('validates as OpenAPI 3.1', async () => {
    const document = await documentOf();
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('says which calls need the bearer token, and answers the error body on errors', async () => {
    const { paths } = await documentOf();
    expect(paths['/api/login']!.post!.security).toBeUndefined();
    expect(paths['/api/health']!.get!.security).toBeUndefined();
    expect(paths['/api/cloudflare/zones/{zone_id}/dns']!.get!.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(paths['/api/cloudflare/zones/{zone_id}/dns']!.post!.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '404', '502']),
    );
  });
});

describe('the API reference page', () => {
  it('is served with the strict CSP, and runs only scripts of this origin', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: API_DOCS_PATH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Every script is a file: an inline one would not run under script-src 'self'.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/src="\/api\/docs\//);
      expect(content).toBe('');
    }
    for (const [, src] of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const asset = await ctx.app.inject({ method: 'GET', url: src! });
      expect(asset.statusCode, src).toBe(200);
      expect(asset.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    }
  });

  it("fetches the document with the web app's token, and sends a person without one to sign in", async () => {
    const script = await ctx.app.inject({ method: 'GET', url: `${API_DOCS_PATH}/docs.js` });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain("localStorage.getItem('token')");
    expect(script.body).toContain(
      "fetch('/api/openapi.json', { headers: { Authorization: 'Bearer ' + token } })",
    );
    expect(script.body).toContain("link.href = '/login'");
    const bundle = await ctx.app.inject({ method: 'GET', url: `${API_DOCS_PATH}/swagger-ui-bundle.js` });
    expect(bundle.body.length).toBeGreaterThan(500_000);
    expect(bundle.body).toContain('SwaggerUIBundle');
  });
});

describe('validation by declaration', () => {
  it('words a request without a body as before: Zod on what was sent (nothing)', async () => {
    const response = await ctx.app.inject({ ...requestTo(accountEndpoints.add), headers: user.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Invalid input: expected object, received undefined',
    });
    const literalNull = await ctx.app.inject({
      ...requestTo(accountEndpoints.add),
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(literalNull.json().message).toBe('Invalid input: expected object, received null');
  });
});

describe('the pre-serialised answers', () => {
  /** A POST of `user`'s that must create (201): what it made. */
  const created = async (url: string, payload: object) => {
    const response = await ctx.app.inject({ method: 'POST', url, headers: user.headers, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const read = (url: string) => ctx.app.inject({ method: 'GET', url, headers: user.headers });

  it('match their declared schemas exactly (no serializer checks them on the way out)', async () => {
    const account = ctx.sandbox.control.addAccount({ name: 'Docs', plan: 'pro' });
    ctx.sandbox.control.addToken({ value: 'docs-token-abcd1234', accountIds: [account.id] });
    await created('/api/cloudflare/accounts', { account_name: 'Docs', token: 'docs-token-abcd1234' });
    await created('/api/cloudflare/zones', { account_id: account.id, domain: 'docs-example.com' });
    const list = await created('/api/cloudflare/banlists', {
      account_name: 'Docs',
      list_name: 'docs_list',
      kind: 'ip',
    });
    const listId = list.list_id as string;
    const item = await created(`/api/cloudflare/banlists/${listId}/items`, {
      ip: '203.0.113.7',
      comment: 'docs',
    });

    const zones = await read('/api/cloudflare/zones');
    expect(zones.headers['content-type']).toBe('application/json; charset=utf-8');
    const zoneRows = z.array(z.strictObject(zoneSchema.shape)).parse(zones.json());
    expect(zoneRows.map((row) => row.domain)).toEqual(['docs-example.com']);

    const page = await read(`/api/cloudflare/banlists/${listId}/items?per_page=10`);
    expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
    const strictPage = z.strictObject({
      ...banListItemsPageSchema.shape,
      items: z.array(z.strictObject(banListItemSchema.shape)),
    });
    expect(strictPage.parse(page.json())).toEqual({
      items: [item],
      totalItems: 1,
      totalItemsCapped: false,
    });

    const search = await read('/api/cloudflare/ip-search?q=203.0.113.0%2F24');
    expect(search.headers['content-type']).toBe('application/json; charset=utf-8');
    const strictSearch = z.strictObject({
      ...ipSearchAnswerSchema.shape,
      query: z.strictObject(ipSearchAnswerSchema.shape.query.shape),
      lists: z.array(
        z.strictObject({
          ...ipSearchFoundListSchema.shape,
          matches: z.array(z.strictObject(ipSearchMatchSchema.shape)),
        }),
      ),
    });
    const found = strictSearch.parse(search.json());
    expect(
      found.lists.flatMap((list) => list.matches.map((match) => [list.list_name, match.ip, match.relation])),
    ).toEqual([['docs_list', '203.0.113.7', 'within']]);
  });
});
