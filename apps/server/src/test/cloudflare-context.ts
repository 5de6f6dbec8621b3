import { createSandbox, type Sandbox, type SandboxOptions } from '@guardian/sandbox';
import type { CloudflareAccount } from '@guardian/contract';
import { createTestContext, type TestContext, type TestContextOptions, type TestUser } from './context';

export interface CloudflareTestContext extends TestContext {
  /** The Cloudflare sandbox the server talks to, listening on a free port. */
  sandbox: Sandbox;
  /**
   * Seeds a sandbox account with a token and adds it to the user's console through the API, as a
   * person would. Answers the account as the API returned it.
   */
  addAccount(
    user: TestUser,
    options?: { name?: string; plan?: 'free' | 'pro' | 'business' | 'enterprise'; token?: string },
  ): Promise<CloudflareAccount & { tokenValue: string }>;
}

export type CloudflareTestContextOptions = TestContextOptions & { sandbox?: SandboxOptions };

let accountCounter = 0;

/**
 * Cloudflare API tokens are secrets: no answer of the API may contain one, in any test of the suite.
 * Every token the sandbox is given is remembered; every response body and header is searched for them,
 * and `close()` fails the test file that saw a leak.
 */
function watchForTokenLeaks(sandbox: Sandbox) {
  const tokens = new Set<string>();
  const leaks: string[] = [];
  const addToken = sandbox.control.addToken.bind(sandbox.control);
  sandbox.control.addToken = (input) => {
    // Very short test tokens ("x") would match by chance; real ones are 40 characters.
    if (input.value.length >= 8) tokens.add(input.value);
    return addToken(input);
  };
  return {
    check(what: string, payload: unknown, headers: Record<string, unknown>) {
      if (tokens.size === 0) return;
      const text =
        (typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '') +
        JSON.stringify(headers);
      for (const token of tokens)
        if (text.includes(token)) leaks.push(`${what} answered the Cloudflare token ${token}`);
    },
    assertNone() {
      if (leaks.length > 0) throw new Error(`Cloudflare tokens leaked in API answers:\n${leaks.join('\n')}`);
    },
  };
}

/**
 * A test context whose server talks to an in-process Cloudflare sandbox over real HTTP (the SDK uses
 * fetch), with short timeouts and retries so fault tests run fast.
 */
export async function createCloudflareTestContext(
  options: CloudflareTestContextOptions = {},
): Promise<CloudflareTestContext> {
  const sandbox = await createSandbox({ rateLimit: false, ...options.sandbox });
  const baseUrl = await sandbox.listen(0, '127.0.0.1');
  const leaks = watchForTokenLeaks(sandbox);
  const ctx = await createTestContext({
    ...options,
    async setup(app) {
      app.addHook('onSend', async (request, reply, payload) => {
        leaks.check(`${request.method} ${request.url} (${reply.statusCode})`, payload, reply.getHeaders());
        return payload;
      });
      await options.setup?.(app);
    },
    config: {
      ...options.config,
      cloudflare: {
        baseUrl,
        timeoutMs: 2_000,
        maxRetries: 2,
        rateLimit: { requests: 100_000, windowMs: 300_000 },
        maxRetryAfterMs: 3_000,
        ...options.config?.cloudflare,
      },
    },
  });

  return {
    ...ctx,
    sandbox,
    async addAccount(user, { name, plan = 'enterprise', token } = {}) {
      accountCounter += 1;
      const accountName = name ?? `Account ${accountCounter}`;
      const tokenValue = token ?? `test-token-${accountCounter}-${Math.random().toString(36).slice(2)}`;
      const account = sandbox.control.addAccount({ name: accountName, plan });
      sandbox.control.addToken({ value: tokenValue, accountIds: [account.id] });
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/cloudflare/accounts',
        headers: user.headers,
        payload: { account_name: accountName, token: tokenValue },
      });
      if (response.statusCode !== 201) throw new Error(`Adding the account failed: ${response.body}`);
      return { ...(response.json() as CloudflareAccount), tokenValue };
    },
    async close() {
      await ctx.close();
      await sandbox.close();
      leaks.assertNone();
    },
  };
}
