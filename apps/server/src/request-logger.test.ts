import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger';
import { createTestContext, type TestContext, type TestUser } from './test/context';

/**
 * Each request's logger (the app's childLoggerFactory, requestLogger): its lines carry the request's
 * id and are redacted as the app logger's are, and pino's child is made only when the request logs.
 */

let ctx: TestContext;
let user: TestUser;
const lines: Record<string, unknown>[] = [];
const logger = createLogger(
  { logLevel: 'warn' },
  { write: (line: string) => void lines.push(JSON.parse(line)) },
);
const childOf = vi.spyOn(logger, 'child');

beforeAll(async () => {
  ctx = await createTestContext({
    deps: { logger },
    setup(app) {
      app.get('/api/test/quiet', async (request) => {
        request.log.info('below the level set');
        return {};
      });
      app.get('/api/test/loud', async (request) => {
        request.log.warn({ token: 'SECRET-1', account: { apiToken: 'SECRET-2' } }, 'first');
        request.log.child({ step: 2 }).error({ password: 'SECRET-3' }, 'second');
        // A level set on a request's logger is its own.
        request.log.level = 'error';
        request.log.warn('not written');
        return {};
      });
    },
  });
  user = await ctx.createUser();
});
afterAll(async () => ctx?.close());

describe("a request's logger", () => {
  it("does not make pino's child for a request that logs nothing at the level set", async () => {
    childOf.mockClear();
    const response = await ctx.app.inject({ method: 'GET', url: '/api/test/quiet', headers: user.headers });
    expect(response.statusCode).toBe(200);
    expect(childOf).not.toHaveBeenCalled();
  });

  it("writes the request's id on its lines and its children's, redacted, at its own level", async () => {
    lines.length = 0;
    const response = await ctx.app.inject({ method: 'GET', url: '/api/test/loud', headers: user.headers });
    expect(response.statusCode).toBe(200);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: expect.any(String),
        token: '[REDACTED]',
        account: { apiToken: '[REDACTED]' },
        msg: 'first',
      }),
      expect.objectContaining({ level: 50, step: 2, password: '[REDACTED]', msg: 'second' }),
    ]);
    expect(lines[1]!.reqId).toBe(lines[0]!.reqId);
    expect(JSON.stringify(lines)).not.toContain('SECRET');
    expect(logger.level).toBe('warn');

    // The next request's lines carry its own id.
    const first = lines[0]!.reqId;
    lines.length = 0;
    await ctx.app.inject({ method: 'GET', url: '/api/test/loud', headers: user.headers });
    expect(lines.map((line) => line.reqId)).toEqual([expect.any(String), lines[0]!.reqId]);
    expect(lines[0]!.reqId).not.toBe(first);
  });
});
