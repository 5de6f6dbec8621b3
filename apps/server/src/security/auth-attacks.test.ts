import { decodeJwt } from 'jose';
import { authEndpoints } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import type { RouteEntry } from '../route-table';
import { signTestToken, type TestUser } from '../test/context';
import { requestTo } from '../test/request';
import {
  apiRoutes,
  errorCodeOf,
  routeName,
  sampleCall,
  seedEstate,
  sendSample,
  urlsFor,
  worldFingerprint,
  type Estate,
  type SampleRequest,
  ROUTE_WALK_TIMEOUT_MS,
} from '../test/security';

/**
 * Every way of presenting a bad or missing credential, against every /api route of the route table
 * (a route added later is attacked too), with the victim's real ids and a valid body, so the only
 * reason to refuse is the credential. Each attack answers 401 with the contract's JSON body and
 * touches nothing: the database, the sandbox and the count of Cloudflare calls stay the same.
 * auth.test.ts checks the messages of each case on GET /api/me; this file proves the guard covers
 * every route.
 */

let ctx: CloudflareTestContext;
let victim: Estate;
let disabledOwner: Estate;
const attacks: { name: string; headers: Record<string, string>; query?: string }[] = [];
/** Each route against each estate, with a valid body read while the owners could still sign in. */
const plans: { route: RouteEntry; estate: Estate; url: string; sample: SampleRequest }[] = [];

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  ctx = await createCloudflareTestContext();
  const owner = await ctx.createUser({ level: 1 });
  victim = await seedEstate(ctx, owner, 'victim');
  // A user who owned an estate and has since been disabled: their still-unexpired token is dead.
  const soonDisabled = await ctx.createUser({ level: 1 });
  disabledOwner = await seedEstate(ctx, soonDisabled, 'disabled');
  for (const route of apiRoutes(ctx.app).filter((entry) => entry.access !== 'public')) {
    for (const estate of [victim, disabledOwner]) {
      plans.push({ route, estate, ...(await sampleCall(ctx, route, estate)) });
    }
  }
  await ctx.db.query('UPDATE users SET disabled = true WHERE id = $1', [soonDisabled.id]);
  // And a user who was deleted (their accounts go with them).
  const deleted = await ctx.createUser({ level: 0 });
  await ctx.db.query('DELETE FROM users WHERE id = $1', [deleted.id]);

  // A user who signed out: the token they had is dead on the server, not only in their browser.
  const signedOut = await ctx.createUser({ level: 0 });
  expect(
    (await ctx.app.inject({ ...requestTo(authEndpoints.logout), headers: signedOut.headers })).statusCode,
  ).toBe(204);

  const token = owner.token;
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = decodeJwt(token);
  const now = Math.floor(Date.now() / 1000);
  const sign = (secret: string, claims: Record<string, unknown> = {}, alg = 'HS256') =>
    signTestToken(owner, { secret, alg, claims, iat: now - 60 });
  const expired = await signTestToken(owner, {
    secret: ctx.config.jwtSecret,
    iat: now - 7200,
    exp: now - 1,
  });
  const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

  attacks.push(
    { name: 'no token', headers: {} },
    { name: 'an empty bearer', headers: { authorization: 'Bearer ' } },
    { name: 'garbage', headers: bearer('garbage') },
    { name: 'a three-part garbage token', headers: bearer('abc.def.ghi') },
    { name: 'the token without its signature', headers: bearer(`${header}.${payload}.`) },
    { name: 'a token signed with another secret', headers: bearer(await sign('x'.repeat(48))) },
    {
      name: 'a token signed with HS512 and the right secret',
      headers: bearer(await sign(ctx.config.jwtSecret, {}, 'HS512')),
    },
    {
      name: 'alg none',
      headers: bearer(`${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`),
    },
    {
      name: 'alg none with the original signature',
      headers: bearer(`${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`),
    },
    {
      name: 'a changed level claim with the original signature',
      headers: bearer(`${header}.${base64url({ ...claims, level: 0 })}.${signature}`),
    },
    {
      name: 'a changed subject with the original signature',
      headers: bearer(
        `${header}.${base64url({ ...claims, sub: String(disabledOwner.user.id) })}.${signature}`,
      ),
    },
    { name: 'an expired token', headers: bearer(expired) },
    { name: 'the token of a disabled user', headers: disabledOwner.user.headers },
    {
      name: 'the token of a deleted user',
      headers: { authorization: `Bearer ${await signFor(deleted.id, deleted.email)}` },
    },
    { name: 'the token in the query string (token)', headers: {}, query: `token=${token}` },
    { name: 'the token in the query string (access_token)', headers: {}, query: `access_token=${token}` },
    { name: 'the token as a cookie', headers: { cookie: `token=${token}` } },
    {
      name: 'a Basic header with the token',
      headers: { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
    },
    { name: 'the token without the Bearer scheme', headers: { authorization: token } },
    { name: 'the token of a session that signed out', headers: signedOut.headers },
    {
      name: 'a token with the right secret for a session the server never opened',
      headers: bearer(await sign(ctx.config.jwtSecret)),
    },
    {
      name: 'the owner’s token naming the session of another user, who signed out',
      headers: bearer(
        await signTestToken(owner, { secret: ctx.config.jwtSecret, sessionId: signedOut.sessionId }),
      ),
    },
  );

  async function signFor(id: number, email: string) {
    return signTestToken({ id, email, level: 0 }, { secret: ctx.config.jwtSecret, iat: now });
  }
});
afterAll(() => ctx?.close());

describe('authentication attacks on every /api route', () => {
  it('finds the routes to attack', () => {
    const routes = apiRoutes(ctx.app).filter((route) => route.access !== 'public');
    expect(routes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/me',
        'GET /api/cloudflare/accounts',
        'POST /api/cloudflare/accounts',
        'GET /api/admin/users',
      ]),
    );
  });

  it(
    'answers 401 with a JSON message to each attack, and nothing changes',
    async () => {
      const failures: string[] = [];
      for (const { route, estate, url, sample } of plans) {
        const before = await worldFingerprint(ctx);
        for (const attack of attacks) {
          const response = await sendSample(ctx, route, url, attack.headers, sample, attack.query);
          if (response.statusCode !== 401 || errorCodeOf(response) !== 'UNAUTHORIZED') {
            failures.push(
              `${routeName(route)} with ${attack.name} (${estate.label}): ${response.statusCode} ${response.body.slice(0, 200)}`,
            );
          }
        }
        const after = await worldFingerprint(ctx);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          failures.push(
            `${routeName(route)}: refused requests changed the world ${JSON.stringify({ before, after })}`,
          );
        }
      }
      expect(failures).toEqual([]);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it(
    'guards the HEAD twin of every GET route too',
    async () => {
      for (const route of apiRoutes(ctx.app).filter(
        (entry) => entry.method === 'GET' && entry.access !== 'public',
      )) {
        const [url] = urlsFor(route, victim);
        const response = await ctx.app.inject({ method: 'HEAD', url: url! });
        expect(response.statusCode, `HEAD ${route.url}`).toBe(401);
        expect(response.body).toBe('');
      }
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it('refuses before reading the body: a 2 MB body without a token is a 401, not a 413', async () => {
    for (const route of apiRoutes(ctx.app).filter(
      (entry) => entry.access !== 'public' && entry.method !== 'GET',
    )) {
      const [url] = urlsFor(route, victim);
      const response = await ctx.app.inject({
        method: route.method as 'POST',
        url: url!,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('does not accept a token of one user to act as another by changing the subject', async () => {
    const owner: TestUser = victim.user;
    const [header, , signature] = owner.token.split('.');
    const forged = `${header}.${base64url({ ...decodeJwt(owner.token), sub: String(disabledOwner.user.id + 1000) })}.${signature}`;
    const response = await ctx.app.inject({
      ...requestTo(authEndpoints.me),
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.statusCode).toBe(401);
  });
});
