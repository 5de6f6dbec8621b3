import type Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../app-error';
import { listItemPages, type CloudflareItem, type ListItemPagesOptions } from './list-item-pages';

interface Call {
  listId: string;
  query: { account_id: string; per_page: number; search?: string; cursor?: string };
}

/**
 * A Cloudflare whose list items answer `pageFor(cursor, call number)`: the page's addresses, and the
 * cursor it announces (none for the last page). Every call is recorded.
 */
function fakeCloudflare(
  pageFor: (cursor: string | undefined, call: number) => { ips: string[]; after?: string },
) {
  const calls: Call[] = [];
  const cf = {
    rules: {
      lists: {
        items: {
          list: (listId: string, query: Call['query']) => {
            calls.push({ listId, query });
            const { ips, after } = pageFor(query.cursor, calls.length);
            return Promise.resolve({
              result: ips.map((ip) => ({ id: `id-${ip}`, ip, created_on: '2024-01-01T00:00:00Z' })),
              result_info: { cursors: after === undefined ? {} : { after } },
            });
          },
        },
      },
    },
  } as unknown as Cloudflare;
  return { cf, calls };
}

const list = { listId: 'list-1', accountId: 'account-1' };
const options: ListItemPagesOptions = {
  maxPages: 10,
  what: 'the items of the list "blocked"',
  tooManyPages: 'too many pages for the test.',
};

/** Three pages: a, b, then c (the last). */
const threePages = (cursor: string | undefined) =>
  cursor === undefined
    ? { ips: ['192.0.2.1', '192.0.2.2'], after: 'b' }
    : cursor === 'b'
      ? { ips: ['192.0.2.3'], after: 'c' }
      : { ips: ['192.0.2.4'] };

/** The addresses of each page the walk hands on. */
async function collect(pages: AsyncIterable<CloudflareItem[]>): Promise<string[][]> {
  const seen: string[][] = [];
  for await (const page of pages) seen.push(page.map((item) => ('ip' in item ? item.ip : '')));
  return seen;
}

/** The 502 the walk ends with: Cloudflare's answer could not be used, in `detail`'s words. */
const upstream502 = (detail: string) => ({
  name: 'AppError',
  status: 502,
  message: `Cloudflare's answer could not be used: the items of the list "blocked": ${detail}`,
});

describe('listItemPages', () => {
  it("walks the list's pages by cursor, 500 a call, with the search when one is given", async () => {
    const { cf, calls } = fakeCloudflare(threePages);
    const pages = await collect(listItemPages(cf, list, { ...options, search: '192.0.2.' }));
    expect(pages).toEqual([['192.0.2.1', '192.0.2.2'], ['192.0.2.3'], ['192.0.2.4']]);
    expect(calls.map((call) => call.query)).toEqual([
      { account_id: 'account-1', search: '192.0.2.', per_page: 500 },
      { account_id: 'account-1', search: '192.0.2.', per_page: 500, cursor: 'b' },
      { account_id: 'account-1', search: '192.0.2.', per_page: 500, cursor: 'c' },
    ]);
    expect(calls.every((call) => call.listId === 'list-1')).toBe(true);
  });

  it('ends with a 502 in words when Cloudflare sends a cursor it sent before, making no further call', async () => {
    const { cf, calls } = fakeCloudflare(() => ({ ips: ['192.0.2.1'], after: 'again' }));
    const handed: string[][] = [];
    await expect(
      (async () => {
        for await (const page of listItemPages(cf, list, options)) handed.push(page.map((item) => item.id));
      })(),
    ).rejects.toMatchObject(
      upstream502('Cloudflare sent the same page cursor twice. Please try again later.'),
    );
    expect(calls).toHaveLength(2);
    // The second page is still handed on: a consumer looking for one item may find it there.
    expect(handed).toHaveLength(2);
  });

  it("says the caller's own words for a repeated cursor", async () => {
    const { cf } = fakeCloudflare(() => ({ ips: [], after: 'again' }));
    await expect(
      collect(listItemPages(cf, list, { ...options, sameCursor: 'Please try the sync again later.' })),
    ).rejects.toMatchObject(upstream502('Please try the sync again later.'));
  });

  it('follows no more than maxPages pages, then ends with the caller-given 502', async () => {
    const { cf, calls } = fakeCloudflare((_cursor, call) => ({
      ips: [`192.0.2.${call}`],
      after: `next-${call}`,
    }));
    await expect(collect(listItemPages(cf, list, { ...options, maxPages: 3 }))).rejects.toMatchObject(
      upstream502('too many pages for the test.'),
    );
    expect(calls).toHaveLength(3);
  });

  it('a list that ends on its last allowed page is read whole', async () => {
    const { cf, calls } = fakeCloudflare(threePages);
    const pages = await collect(listItemPages(cf, list, { ...options, maxPages: 3, prefetch: true }));
    expect(pages).toHaveLength(3);
    expect(calls).toHaveLength(3);
  });

  it('with prefetch, asks for the next page before the consumer does; without, only when asked', async () => {
    const prefetching = fakeCloudflare(threePages);
    const ahead = listItemPages(prefetching.cf, list, { ...options, prefetch: true });
    await ahead.next();
    expect(prefetching.calls.map((call) => call.query.cursor)).toEqual([undefined, 'b']);
    await ahead.return();
    // Stopped early: the page already asked for is the last call.
    expect(prefetching.calls).toHaveLength(2);

    const lazy = fakeCloudflare(threePages);
    const onDemand = listItemPages(lazy.cf, list, options);
    await onDemand.next();
    expect(lazy.calls).toHaveLength(1);
    await onDemand.return();
    expect(lazy.calls).toHaveLength(1);
  });

  it('with prefetch, asks for no page past a refused one', async () => {
    const { cf, calls } = fakeCloudflare(() => ({ ips: ['192.0.2.1'], after: 'again' }));
    await expect(collect(listItemPages(cf, list, { ...options, prefetch: true }))).rejects.toMatchObject(
      upstream502('Cloudflare sent the same page cursor twice. Please try again later.'),
    );
    expect(calls).toHaveLength(2);
  });

  it("stops with the signal's reason when the next page arrives after an abort", async () => {
    const { cf, calls } = fakeCloudflare(threePages);
    const controller = new AbortController();
    const pages = listItemPages(cf, list, { ...options, signal: controller.signal });
    await pages.next();
    controller.abort(new AppError('CONFLICT', 'stopped by the test'));
    await expect(pages.next()).rejects.toThrow('stopped by the test');
    expect(calls).toHaveLength(2);
  });

  it('refuses a page not in the form Cloudflare documents with a 502', async () => {
    const { cf } = fakeCloudflare(() => ({ ips: ['192.0.2.1'] }));
    const broken = {
      rules: {
        lists: {
          items: {
            list: (listId: string, query: Call['query']) =>
              (cf.rules.lists.items.list(listId, query as never) as unknown as Promise<object>).then(
                (page) => ({
                  ...page,
                  result: [{ id: 'x', created_on: 'now' }],
                }),
              ),
          },
        },
      },
    } as unknown as Cloudflare;
    await expect(collect(listItemPages(broken, list, options))).rejects.toMatchObject(
      upstream502('not in the form Cloudflare documents (at result.0).'),
    );
  });
});
