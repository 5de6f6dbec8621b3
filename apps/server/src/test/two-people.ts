import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  createCloudflareTestContext,
  type CloudflareTestContext,
  type CloudflareTestContextOptions,
} from './cloudflare-context';
import type { TestUser } from './context';

export interface TwoPeople {
  ctx: CloudflareTestContext;
  /** Two people of level 1: most suites check that one never reaches the other's things. */
  alice: TestUser;
  bob: TestUser;
}

/**
 * The usual set-up of a server suite, as hooks of the suite it is called in: a Cloudflare test context
 * and two people before its tests (handed to `use`), the sandbox's faults cleared after each test, the
 * context closed after the last.
 *
 *   let { ctx, alice, bob } = {} as TwoPeople;
 *   twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));
 */
export function twoPeopleSuite(
  use: (suite: TwoPeople) => void,
  options?: CloudflareTestContextOptions,
): void {
  let ctx: CloudflareTestContext | undefined;
  beforeAll(async () => {
    ctx = await createCloudflareTestContext(options);
    use({ ctx, alice: await ctx.createUser(), bob: await ctx.createUser() });
  });
  afterEach(() => ctx?.sandbox.control.clearFaults());
  afterAll(() => ctx?.close());
}
