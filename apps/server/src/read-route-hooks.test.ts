import { authEndpoints, banListItemEndpoints, twoFactorEndpoints } from '@guardian/contract';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from './test/context';

/**
 * The hooks of the audit trail, the API keys' limits and the two-factor gate are attached only to the
 * routes they act on: a cached read (a page of a list's items) runs no audit hook, and the two it does
 * run pass at once, without a promise, when there is nothing to wait for.
 */

type Hooks = Record<string, string[]>;

/** Each route's hooks, by "METHOD /full/path", read from Fastify's own tree of routes. */
function routeHooks(app: FastifyInstance): Map<string, Hooks> {
  const routes = new Map<string, Hooks>();
  const stack: { column: number; path: string }[] = [];
  let current: Hooks | undefined;
  for (const line of app.printRoutes({ includeHooks: true }).split('\n')) {
    const hook = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (hook) {
      if (current) current[hook[1]!] = JSON.parse(hook[2]!) as string[];
      continue;
    }
    const node = /^([│ ├└─]*)(\S[^ ]*)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const column = node[1]!.length;
    while (stack.length > 0 && stack.at(-1)!.column >= column) stack.pop();
    const path = (stack.at(-1)?.path ?? '') + node[2]!;
    stack.push({ column, path });
    current = undefined;
    for (const method of node[3]?.split(', ') ?? []) routes.set(`${method} ${path}`, (current = {}));
  }
  return routes;
}

const AUDIT = ['auditContextOf()', 'recordInAuditTrail()'];

let ctx: TestContext;
let routes: Map<string, Hooks>;
/** The hooks of a route of the test's own, as the last onRoute hook sees them. */
const captured = new Map<string, RouteOptions>();

beforeAll(async () => {
  ctx = await createTestContext({
    // Sessions kept as in production (the tests' default reads every one again).
    config: { sessionRecheckMs: 2_000 },
    setup(app) {
      app.addHook('onRoute', (route) => void captured.set(`${String(route.method)} ${route.url}`, route));
      app.get('/api/test/lists/:list_id', { config: { owns: ['list_id'] } }, async () => ({}));
    },
  });
  routes = routeHooks(ctx.app);
});
afterAll(async () => ctx?.close());

/** A route's hooks; the tree names a param shared by routes of different names `:id|:list_id`. */
const hooksOf = (method: string, path: string) => {
  const wanted = path.split('/');
  for (const [route, hooks] of routes) {
    const [routeMethod, routePath] = route.split(' ') as [string, string];
    const segments = routePath.split('/');
    if (
      routeMethod === method &&
      segments.length === wanted.length &&
      segments.every((segment, i) => segment.split('|').includes(wanted[i]!))
    )
      return hooks;
  }
  throw new Error(`no route ${method} ${path}`);
};

describe('hooks attached per route', () => {
  it('a cached read and its HEAD run no audit hook, one key-limits check and one two-factor gate', () => {
    for (const method of ['GET', 'HEAD']) {
      const hooks = hooksOf(method, banListItemEndpoints.page.path);
      expect(hooks.preHandler).toEqual(['keyLimits()']);
      expect(hooks.preValidation?.filter((name) => name === 'twoFactorGate()')).toHaveLength(1);
      expect(hooks.onSend ?? []).toEqual(method === 'HEAD' ? ['headRouteOnSendHandler()'] : []);
    }
  });

  it('a change runs the audit hooks, the key limits and the gate; a public sign-in the audit and its request limit', () => {
    const add = hooksOf('POST', banListItemEndpoints.add.path);
    expect(add.preHandler).toEqual([...AUDIT.slice(0, 1), 'keyLimits()']);
    expect(add.onSend).toEqual(AUDIT.slice(1));
    expect(add.preValidation).toContain('twoFactorGate()');

    const login = hooksOf('POST', authEndpoints.login.path);
    // The request limit of a sign-in counts its e-mail, so it runs once the body is read (request-limits.ts).
    expect(login.preHandler).toHaveLength(2);
    expect(login.preHandler).toContain(AUDIT[0]);
    expect(login.preHandler).not.toContain('keyLimits()');
    expect(login.onSend).toEqual(AUDIT.slice(1));
    expect(login.preValidation ?? []).not.toContain('twoFactorGate()');
  });

  it('the gate stays off the enrolment routes, as today by "METHOD /path" (a HEAD of them is gated)', () => {
    expect(hooksOf('GET', authEndpoints.me.path).preValidation ?? []).not.toContain('twoFactorGate()');
    expect(hooksOf('HEAD', authEndpoints.me.path).preValidation).toContain('twoFactorGate()');
    const enable = hooksOf(twoFactorEndpoints.enable.method, twoFactorEndpoints.enable.path);
    expect(enable.preValidation ?? []).not.toContain('twoFactorGate()');
    // An administrator's own requirement: gated for others (who cannot reach it anyway).
    const policy = hooksOf(twoFactorEndpoints.policy.method, twoFactorEndpoints.policy.path);
    expect(policy.preValidation).toContain('twoFactorGate()');
  });

  it('the key limits and the gate are callback hooks, not async functions', () => {
    const route = captured.get('GET /api/test/lists/:list_id');
    const hooks = [route?.preHandler, route?.preValidation].flat().filter((hook) => hook !== undefined);
    expect(hooks.map((hook) => hook.name)).toEqual(['keyLimits', 'twoFactorGate']);
    for (const hook of hooks) expect(hook.constructor.name).toBe('Function');
  });

  it("the auth guard passes a kept session at once, without a promise; a new one's after its read", async () => {
    const route = captured.get('GET /api/test/lists/:list_id');
    const onRequest = [route?.onRequest].flat().filter((hook) => hook !== undefined);
    const guard = onRequest.find((hook) => hook.name === 'authGuard');
    expect(guard?.constructor.name).toBe('Function');
    const user = await ctx.createUser();
    const run = (request: { headers: Record<string, string> }) => {
      let outcome: { error: unknown } | undefined;
      const returned = (guard as (...args: unknown[]) => unknown)(request, {}, (error: unknown) => {
        outcome = { error };
      });
      return { returned, outcome: () => outcome };
    };
    const first = { headers: user.headers } as { headers: Record<string, string>; user?: { id: number } };
    const read = run(first);
    expect(read.outcome()).toBeUndefined(); // the session is read from the database first
    await vi.waitFor(() => expect(read.outcome()).toEqual({ error: undefined }));
    expect(first.user?.id).toBe(user.id);

    const again = { headers: user.headers } as { headers: Record<string, string>; user?: { id: number } };
    const kept = run(again);
    expect(kept.returned).toBeUndefined();
    expect(kept.outcome()).toEqual({ error: undefined });
    expect(again.user?.id).toBe(user.id);

    const refused = run({ headers: { authorization: 'Basic abc' } });
    expect(refused.returned).toBeUndefined();
    expect(refused.outcome()?.error).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("reads each request's own header on a kept-alive connection (the guard keeps its last token)", async () => {
    const [alice, bob] = [await ctx.createUser(), await ctx.createUser()];
    const origin = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    let connections = 0;
    ctx.app.server.on('connection', () => connections++);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const me = (authorization?: string) =>
      new Promise<{ status: number; id?: number }>((resolve, reject) => {
        const headers = authorization === undefined ? {} : { authorization };
        httpRequest(`${origin}${authEndpoints.me.path}`, { agent, headers }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, id: JSON.parse(text).id }));
        })
          .on('error', reject)
          .end();
      });
    try {
      const answers = [];
      for (const header of [alice.headers, bob.headers, alice.headers].map((h) => h.authorization))
        answers.push(await me(header));
      answers.push(
        await me(`${alice.headers.authorization}!`),
        await me(),
        await me(bob.headers.authorization),
      );
      expect(answers).toEqual([
        { status: 200, id: alice.id },
        { status: 200, id: bob.id },
        { status: 200, id: alice.id },
        { status: 401 },
        { status: 401 },
        { status: 200, id: bob.id },
      ]);
      expect(connections).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
