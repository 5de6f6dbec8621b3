import type { BanListItemsPage } from '@guardian/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from './test/cloudflare-context';
import type { TestUser } from './test/context';
import { AnswerCache } from './answer-cache';

describe('AnswerCache', () => {
  it('answers what it keeps while the answer caches are on, nothing while they are off', () => {
    const caching = { enabled: true };
    const cache = new AnswerCache<string>(caching, { max: 10 });
    cache.set('a', 'A');
    expect(cache.get('a')).toBe('A');
    caching.enabled = false;
    expect(cache.get('a')).toBeUndefined();
    caching.enabled = true;
    expect(cache.get('a')).toBe('A');
  });

  it('drops the least recently used entry past its size', () => {
    const cache = new AnswerCache<string>({ enabled: true }, { max: 2 });
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
  });

  it('forgets an entry after its ttl', () => {
    const clock = { at: 5_000, now: () => clock.at };
    const cache = new AnswerCache<string>(
      { enabled: true },
      { max: 2, ttl: 1_000, ttlResolution: 0, perf: clock },
    );
    cache.set('a', 'A');
    clock.at = 5_999;
    expect(cache.get('a')).toBe('A');
    clock.at = 6_001;
    expect(cache.get('a')).toBeUndefined();
  });
});

/**
 * GUARDIAN_ANSWER_CACHES=off (the benchmark's cold reads): every page is read from the database. Seen
 * through a change the server cannot know of (a comment rewritten in the database, the list's version
 * unchanged): a cached page keeps the old comment, an uncached one shows the new.
 */
describe.each([
  { answerCaches: true, shows: 'before' },
  { answerCaches: false, shows: 'after' },
])('items pages with the answer caches $answerCaches', ({ answerCaches, shows }) => {
  let ctx: CloudflareTestContext | undefined;
  afterEach(() => ctx?.close());

  it(`answer the comment ${shows} a change behind the server's back`, async () => {
    ctx = await createCloudflareTestContext({ config: { answerCaches } });
    const alice: TestUser = await ctx.createUser();
    const account = await ctx.addAccount(alice);
    const list = ctx.sandbox.control.addList(account.account_id, { name: 'cached', kind: 'ip' });
    ctx.sandbox.control.seedListItems(account.account_id, list.id, [{ ip: '10.0.0.1', comment: 'before' }]);
    const call = (method: 'GET' | 'POST', url: string) =>
      ctx!.app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: alice.headers });
    expect((await call('POST', '/update')).statusCode).toBe(200);
    expect((await call('POST', `/${list.id}/sync`)).statusCode).toBe(200);
    const comment = async () => {
      const page = await call('GET', `/${list.id}/items?page=1&per_page=100`);
      expect(page.statusCode).toBe(200);
      return page.json<BanListItemsPage>().items.map((item) => item.comment);
    };
    expect(await comment()).toEqual(['before']);
    await ctx.db.query(`UPDATE ban_list_items SET comment = 'after' WHERE ip = '10.0.0.1'`);
    expect(await comment()).toEqual([shows]);
  });
});
