import { z } from 'zod';
import { unusableAnswer, usableAnswer } from '../../cloudflare/answers';

interface CloudflarePage {
  result: unknown;
  result_info?: object;
}

// The SDK's type leaves total_pages and total_count out, though Cloudflare sends them on paged lists.
const resultInfo = z
  .looseObject({
    total_pages: z.number().int().min(0).nullish(),
    total_count: z.number().int().min(0).nullish(),
  })
  .nullish();

export interface PagedList<S extends z.ZodType<{ id: string }>> {
  /** What the list is, for the person: "the zones of the account". */
  what: string;
  item: S;
  perPage: number;
  /** The most items a request follows: Cloudflare's own limit for the list. */
  maxItems: number;
}

/**
 * Every item of a paged Cloudflare list, page by page up to `result_info.total_pages` (the SDK's
 * auto-pager would ask for one empty page more). Items are keyed by id: an item added while paging
 * can push another onto the next page twice. Cloudflare's answer is not trusted: a list claiming
 * more than `maxItems`, a page adding nothing new while more are claimed, or more pages than
 * `maxItems` allows ends the listing with a clear 502 instead of following it.
 */
export async function fetchAllPages<S extends z.ZodType<{ id: string }>>(
  list: PagedList<S>,
  fetchPage: (page: number) => Promise<CloudflarePage>,
): Promise<z.infer<S>[]> {
  const { what, perPage, maxItems } = list;
  const tooMany = (count: number) =>
    unusableAnswer(
      what,
      `Cloudflare lists ${count.toLocaleString('en')} of them, more than the ${maxItems.toLocaleString('en')} the console reads.`,
    );
  const maxPages = Math.ceil(maxItems / perPage) + 1;
  const items = new Map<string, z.infer<S>>();
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page);
    const result = usableAnswer(z.array(list.item).max(perPage), answer.result, what);
    const info = usableAnswer(resultInfo, answer.result_info, what);
    const claimed = info?.total_count ?? 0;
    if (claimed > maxItems) throw tooMany(claimed);
    const before = items.size;
    for (const item of result) items.set(item.id, item);
    if (items.size > maxItems) throw tooMany(items.size);
    const totalPages = info?.total_pages ?? undefined;
    const more = totalPages === undefined ? result.length === perPage : page < totalPages;
    // An empty page ends the list: items deleted while paging leave the last pages empty.
    if (!more || result.length === 0) return [...items.values()];
    if (items.size === before || page >= maxPages) {
      throw unusableAnswer(what, 'Cloudflare keeps announcing more pages without new items.');
    }
  }
}
