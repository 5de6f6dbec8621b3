import type Cloudflare from 'cloudflare';
import { writeListItems, WriteOutcomeUnknown } from '../../cloudflare';
import { AppError } from '../../app-error';
import { unusableAnswer } from '../../cloudflare/answers';
import type { Db } from '../../db';
import { banListNotFound } from '../ban-list-mirror';
import type { BanListParts } from '../ban-list-mirror';
import { BanListItemsRepository } from '../ban-list-mirror';
import { BanListsRepository, type BanListRecord } from '../ban-list-mirror';
import { CLOUDFLARE_ITEMS_PER_PAGE, listItemPages, type CloudflareItem } from '../ban-list-mirror';
import { keyOfCloudflareItem, keyOfMirrorValue, parseItemValue, type ItemValue } from '../ban-list-mirror';
import { isPendingItemId } from '../ban-list-mirror';
import { lookAfterLostWrite, OUTCOME_WAIT_REQUEST_MS } from './write-outcome';

/**
 * Pages of Cloudflare's search followed to find one item. Its search is a prefix: an address's page
 * holds the addresses it starts (10.0.0.1 finds 10.0.0.10-19 and 10.0.0.100-199, 111 at most), so
 * more pages than this mean an answer that does not end.
 */
const MAX_SEARCH_PAGES = 3;
/** Up to this many provisional ids are learned by a search each; more by one walk of the list. */
export const SEARCHED_ITEMS_MAX = 10;
/** Pages of the walk past what the list's count needs (items another write added meanwhile). */
const EXTRA_PAGES = 3;

/**
 * The item with `item`'s key at Cloudflare, by Cloudflare's own search (an IP address matches by
 * prefix, a hostname or redirect by substring, an ASN exactly: only the exact key counts). Null when
 * the search ended without it; undefined when it went on past MAX_SEARCH_PAGES (no answer).
 */
export async function searchAtCloudflare(
  cf: Cloudflare,
  list: BanListRecord,
  item: ItemValue,
): Promise<CloudflareItem | null | undefined> {
  const pages = listItemPages(cf, list, {
    search: item.search,
    // One page more than read: the walk is left (no further call) instead of refused at the last.
    maxPages: MAX_SEARCH_PAGES + 1,
    what: `Cloudflare's search of the list "${list.listName}"`,
    tooManyPages: `it went on past ${MAX_SEARCH_PAGES} pages for one value.`,
  });
  let read = 0;
  for await (const page of pages) {
    const found = page.find((candidate) => keyOfCloudflareItem(candidate) === item.key);
    if (found) return found;
    if (++read === MAX_SEARCH_PAGES) return undefined;
  }
  return null;
}

/** As `searchAtCloudflare`, a search that does not end being a 502 (the Add dialog's duplicate check). */
export async function findAtCloudflare(
  cf: Cloudflare,
  list: BanListRecord,
  item: ItemValue,
): Promise<CloudflareItem | undefined> {
  const found = await searchAtCloudflare(cf, list, item);
  if (found === undefined) {
    throw unusableAnswer(
      `Cloudflare's search of the list "${list.listName}"`,
      `it went on past ${MAX_SEARCH_PAGES} pages for one value.`,
    );
  }
  return found ?? undefined;
}

interface MirroredItem {
  /** The mirror's id. */
  id: number;
  /** Cloudflare's id, or a provisional one (pending-item-id.ts). */
  itemId: string;
  ip: string;
}

/**
 * Cloudflare's ids of items about to be sent to Cloudflare by id (a DELETE). An import records its
 * items at once under provisional ids (Cloudflare's answer to a write is an operation id only, and
 * reading a 400,000-item list back to learn them cost ~1,000 calls); they are learned here, when first
 * needed: up to SEARCHED_ITEMS_MAX by a search each, more (or any a search does not settle) by one
 * walk of the list that stops once all are found. The learned ids replace the provisional ones in the
 * mirror and in the items' history, in one transaction. `known`: the items with Cloudflare's id (the
 * others' unchanged); `gone`: provisional items Cloudflare no longer has (removed there meanwhile),
 * which are never sent. Callers hold the list's write turn.
 */
async function learnItemIds<T extends MirroredItem>(
  db: Db,
  cf: Cloudflare,
  list: BanListRecord,
  items: readonly T[],
): Promise<{ known: T[]; gone: T[] }> {
  const pending = items.filter((item) => isPendingItemId(item.itemId));
  if (pending.length === 0) return { known: [...items], gone: [] };
  const learned = new Map<T, string>();
  let unsettled: T[] = pending;
  const gone: T[] = [];
  if (pending.length <= SEARCHED_ITEMS_MAX) {
    unsettled = [];
    for (const item of pending) {
      const value = parseItemValue(list.kind, item.ip);
      const found = typeof value === 'string' ? undefined : await searchAtCloudflare(cf, list, value);
      if (found) learned.set(item, found.id);
      else if (found === null) gone.push(item);
      else unsettled.push(item);
    }
  }
  if (unsettled.length > 0) {
    const wanted = new Map<string, T[]>();
    for (const item of unsettled) {
      const key = keyOfMirrorValue(list.kind, item.ip);
      wanted.set(key, [...(wanted.get(key) ?? []), item]);
    }
    const pages = listItemPages(cf, list, {
      maxPages: Math.ceil(list.itemsCount / CLOUDFLARE_ITEMS_PER_PAGE) + EXTRA_PAGES,
      what: `the items of the list "${list.listName}"`,
      tooManyPages: 'Cloudflare kept announcing more pages than the list holds. Please try again later.',
    });
    for await (const page of pages) {
      for (const found of page) {
        const key = keyOfCloudflareItem(found);
        for (const item of wanted.get(key) ?? []) learned.set(item, found.id);
        wanted.delete(key);
      }
      if (wanted.size === 0) break;
    }
    for (const left of wanted.values()) gone.push(...left);
  }
  if (learned.size > 0) {
    const changes = [...learned].map(([item, itemId]) => ({ id: item.id, pending: item.itemId, itemId }));
    await db.transaction(async (tx) => {
      if (!(await new BanListsRepository(tx).lock(list.ref))) throw banListNotFound();
      await new BanListItemsRepository(tx).setItemIds(list.ref, changes);
    });
  }
  const goneSet = new Set(gone);
  return {
    known: items.flatMap((item) => {
      if (goneSet.has(item)) return [];
      const itemId = learned.get(item);
      return [itemId === undefined ? item : { ...item, itemId }];
    }),
    gone,
  };
}

/**
 * Deletes mirrored items at Cloudflare by id, in one DELETE in the account's write turn and Lists write
 * budget, awaiting its bulk operation: imported items' ids are learned first (`learnItemIds`), and those
 * Cloudflare no longer has are not sent (a DELETE of them would change nothing there). Answers the items
 * sent, with Cloudflare's ids. Callers hold the list's write turn, and remove the items from the mirror.
 * When the DELETE's outcome was lost, its operation is polled again and (up to SEARCHED_ITEMS_MAX
 * items) the items looked for, within OUTCOME_WAIT_REQUEST_MS: gone from Cloudflare, they are
 * answered as deleted; else the WriteOutcomeUnknown is thrown for the caller to tell.
 */
export async function deleteAtCloudflare<T extends MirroredItem>(
  { db, writes }: Pick<BanListParts, 'db' | 'writes'>,
  cf: Cloudflare,
  list: BanListRecord,
  items: readonly T[],
): Promise<T[]> {
  const { known } = await learnItemIds(db, cf, list, items);
  if (known.length === 0) return known;
  await writes.atCloudflare(list, known.length, async () => {
    try {
      await writeListItems(cf, list.accountId, () =>
        cf.rules.lists.items.delete(list.listId, {
          account_id: list.accountId,
          items: known.map((item) => ({ id: item.itemId })),
        }),
      );
    } catch (err) {
      if (!(err instanceof WriteOutcomeUnknown)) throw err;
      const values =
        known.length <= SEARCHED_ITEMS_MAX ? known.map((item) => parseItemValue(list.kind, item.ip)) : [];
      const allGone = async () => {
        for (const value of values) {
          if (typeof value === 'string' || (await searchAtCloudflare(cf, list, value)) !== null)
            return undefined;
        }
        return values.length > 0 ? true : undefined;
      };
      // Should the looking fail too, the outcome stays unknown.
      const { found, end } = await lookAfterLostWrite(cf, list, err, allGone, OUTCOME_WAIT_REQUEST_MS).catch(
        () => {
          throw err;
        },
      );
      if (end.status === 'failed') throw new AppError('BAD_REQUEST', end.reason);
      if (end.status !== 'completed' && !found) throw err;
    }
  });
  return known;
}
