import type Cloudflare from 'cloudflare';
import { listItemsPageAnswer, unusableAnswer, usableAnswer } from '../../cloudflare/answers';
import type { BanListRecord } from './ban-lists.repository';

export type CloudflareItem = Cloudflare.Rules.Lists.ItemListResponse;

/** Cloudflare's largest page of list items: n items are read in ceil(n / 500) calls. */
export const CLOUDFLARE_ITEMS_PER_PAGE = 500;

export interface ListItemPagesOptions {
  /** Cloudflare's search (a prefix of the value); without it, every item of the list. */
  search?: string;
  /** The most pages followed: a page past these that still announces another ends the walk (502). */
  maxPages: number;
  /** What is read, for the 502 ("the items of the list \"blocked\""). */
  what: string;
  /** The 502's words when the last of `maxPages` pages still announces another. */
  tooManyPages: string;
  /** The 502's words when Cloudflare sends a cursor it sent before. */
  sameCursor?: string;
  /** Checked as each page arrives: the walk ends with the signal's reason. */
  signal?: AbortSignal;
  /** The next page is requested before the current one is handed on (while the consumer works on it). */
  prefetch?: boolean;
}

const SAME_CURSOR = 'Cloudflare sent the same page cursor twice. Please try again later.';

/**
 * A list's items at Cloudflare, a checked page (at most 500 items) at a time, by its cursor. The
 * cursor is not trusted: one seen before, or one announced by the last of `maxPages` pages, ends the
 * walk with a clear 502 (after that page is handed on, so a consumer that stops early still can),
 * instead of spending the account's request budget. A consumer that stops early (`break`) makes no
 * further call, but for the one `prefetch` already made.
 */
export async function* listItemPages(
  cf: Cloudflare,
  list: Pick<BanListRecord, 'listId' | 'accountId'>,
  options: ListItemPagesOptions,
): AsyncGenerator<CloudflareItem[], void, undefined> {
  const { search, maxPages, what, signal } = options;
  const fetchPage = (cursor?: string) =>
    cf.rules.lists.items
      .list(list.listId, {
        account_id: list.accountId,
        ...(search === undefined ? {} : { search }),
        per_page: CLOUDFLARE_ITEMS_PER_PAGE,
        ...(cursor === undefined ? {} : { cursor }),
      })
      .then((page) =>
        usableAnswer(listItemsPageAnswer, { result: page.result, result_info: page.result_info }, what),
      );
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let prefetched: ReturnType<typeof fetchPage> | undefined;
  for (let pages = 1; ; pages++) {
    const page = await (prefetched ?? fetchPage(cursor));
    // Cancelled, or the server stops: the consumer's work so far is its own to keep or drop.
    signal?.throwIfAborted();
    const after = page.result_info?.cursors?.after ?? undefined;
    let refusal: Error | undefined;
    if (after !== undefined && seenCursors.has(after)) {
      refusal = unusableAnswer(what, options.sameCursor ?? SAME_CURSOR);
    } else if (after !== undefined && pages >= maxPages) {
      refusal = unusableAnswer(what, options.tooManyPages);
    }
    if (after !== undefined) seenCursors.add(after);
    prefetched = options.prefetch && after !== undefined && !refusal ? fetchPage(after) : undefined;
    // If the consumer fails or stops first, nobody awaits this page: keep it from going unhandled.
    prefetched?.catch(() => undefined);
    // Checked above: each item holds exactly the one value field the console reads.
    yield page.result as unknown as CloudflareItem[];
    if (refusal) throw refusal;
    if (after === undefined) return;
    cursor = after;
  }
}
