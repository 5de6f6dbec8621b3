import {
  BAN_LIST_ITEM_SEARCH_MATCHES_MAX as SEARCH_MATCHES_MAX,
  BAN_LIST_ITEM_SEARCH_PAGES_AHEAD,
  expiresAtOf,
  type AddBanListItemRequest,
  type BanList,
  type BanListItem,
  type BanListItemsCount,
  type BanListItemsPage,
  type BanListItemHistory,
  type BanListItemSort,
  type ItemExpiry,
  type SortOrder,
} from '@guardian/contract';
import Cloudflare from 'cloudflare';
import { cloudflareErrorToAppError, writeListItems, WriteOutcomeUnknown } from '../../cloudflare';
import { AppError } from '../../app-error';
import { banListNotFound, toBanListDto } from '../ban-list-mirror';
import { ListWriter, type BanListParts, type ListWriterParts } from '../ban-list-mirror';
import {
  BanListItemsRepository,
  type BanListItemRecord,
  type BucketOrder,
  type CommentMatch,
  type ItemFilter,
  type ItemOrder,
} from '../ban-list-mirror';
import { BanListsRepository, type BanListRecord } from '../ban-list-mirror';
import { keyOfMirrorValue, mirrorPrefixOf, parseItemValue } from '../ban-list-mirror';
import { AnswerCache } from '../../answer-cache';
import { deleteAtCloudflare, findAtCloudflare } from './item-ids';
import { syncMirror, toMirrorItem } from '../ban-list-mirror';
import { ItemHistoryRepository } from '../ban-list-mirror';
import type { ItemActor } from '../auth';
import { lookAfterLostWrite, type ListReconciler } from './write-outcome';

const CACHED_PAGES = 500;
const CACHED_COUNTS = 500;
const CACHED_EXACT_COUNTS = 500;
/** A search that could start an IP address (or CIDR). */
const IP_PREFIX = /^[0-9a-f:./]+$/i;
/** Up to this many IP matches, a search reads them through the IP index first. */
const FEW_VALUES = 50_000;
/**
 * A list without order buckets for Comment or Created On (never one since migration 038; kept as the
 * bound of an offset's walk, which passes every row it skips): its pages reach this many items from
 * either end.
 */
const UNINDEXED_SORT_DEPTH = 10_000;
const UNINDEXED_SORTS: ReadonlySet<ItemOrder> = new Set(['comment', 'created_on']);
/** Letters and digits: what pg_trgm makes trigrams of (it reads any other character as a space). */
const WORD = /[a-z0-9]+/gi;

/**
 * How comments are matched: containing the search when the trigram index can serve that, i.e. finds
 * at least one trigram in `ILIKE '%text%'` (pg_trgm pads a word with two spaces in front when a sign
 * precedes it and one behind when a sign follows it, within the search); else at the start of a word,
 * which it always can when the search holds a letter or digit; else not at all (values only).
 */
function commentMatchFor(text: string): CommentMatch | undefined {
  let words = 0;
  for (const word of text.matchAll(WORD)) {
    words++;
    const before = word.index > 0 ? 2 : 0;
    const after = word.index + word[0].length < text.length ? 1 : 0;
    if (word[0].length + before + after >= 3) return 'containing';
  }
  return words > 0 ? 'wordStart' : undefined;
}

export interface ItemsPageRequest {
  search: string;
  page: number;
  per_page: number;
  sort: BanListItemSort;
  order?: SortOrder;
}

/** A search's exact count: the number once the database answered, and its promise meanwhile (shared). */
interface ExactCount {
  value?: number;
  promise: Promise<number>;
}

/** The IP Address column of an ip list sorts as addresses (migration 014); of the other kinds, as text. */
const orderOf = (list: BanListRecord, sort: BanListItemSort): ItemOrder =>
  sort === 'ip' && list.kind === 'ip' ? 'address' : sort;

/** The orders a list keeps in buckets (migration 038), by the page's order. */
const BUCKET_ORDERS: Partial<Record<ItemOrder, BucketOrder>> = {
  id: 'id',
  ip: 'value',
  address: 'address',
  comment: 'comment',
  created_on: 'created_on',
};

export function toItemDto(item: BanListItemRecord): BanListItem {
  return {
    id: item.id,
    ip: item.ip,
    comment: item.comment,
    created_on: (item.firstCreatedOn ?? item.createdOn).toISOString(),
    added_via: item.addedVia,
    added_by: item.addedBy,
    expires_at: item.expiresAt?.toISOString() ?? null,
  };
}

const duplicate = (value: string, where = '') =>
  new AppError('CONFLICT', `${value} is already in this list${where}.`);

/** Who is told how an add ended at Cloudflare (the ban alerts, modules/alerts): refused, or applied. */
export interface BanOutcomes {
  refused(userId: number, list: BanListRecord, value: string, reason: string): Promise<void>;
  applied(userId: number, listId: string, value: string): Promise<void>;
}

/**
 * Cloudflare's refusal of a write, in words: a 4xx other than not found and rate limiting, or its
 * bulk operation failed (an AppError BAD_REQUEST from waitForBulkOperation); undefined for anything else.
 */
function refusalOf(err: unknown): string | undefined {
  if (err instanceof AppError) return err.code === 'BAD_REQUEST' ? err.message : undefined;
  if (!(err instanceof Cloudflare.APIError) || err.status === undefined) return undefined;
  if (err.status < 400 || err.status >= 500 || err.status === 404 || err.status === 429) return undefined;
  return cloudflareErrorToAppError(err)?.message;
}

/**
 * A list's items: paged and searched in the local mirror, written at Cloudflare first (then mirrored),
 * and synced from Cloudflare as a whole (see mirror-sync.ts).
 */
export class BanListItemsService extends ListWriter {
  /**
   * Answered pages as JSON bytes (encoded once, not for every answer), keyed by the list's items
   * version: people page back and forth a lot.
   */
  private readonly pages: AnswerCache<Buffer>;
  private readonly counts: AnswerCache<number>;
  /**
   * Exact counts of searches, keyed by the list's items version and the search: counted once per
   * version (a change bumps the version, so its counts are never asked for again and age out).
   */
  private readonly exactCounts: AnswerCache<ExactCount>;

  private readonly items: BanListItemsRepository;

  constructor(
    parts: ListWriterParts & Pick<BanListParts, 'items' | 'answerCaches'>,
    /** Where a write whose outcome was lost and could not be found out is read back later. */
    private readonly reconciler: ListReconciler,
    /** Told when Cloudflare refuses an add, and when a value is added (the ban alerts, modules/alerts). */
    private readonly bans?: BanOutcomes,
  ) {
    super(parts);
    this.items = parts.items;
    const caching = parts.answerCaches;
    this.pages = new AnswerCache(caching, { max: CACHED_PAGES });
    this.counts = new AnswerCache(caching, { max: CACHED_COUNTS });
    this.exactCounts = new AnswerCache(caching, { max: CACHED_EXACT_COUNTS });
  }

  /**
   * The page's JSON if this process answered it in the list's version and looked the list up within
   * the second, without a promise (most reads are repeats); else undefined: `pageJson` answers it.
   */
  keptPageJson(userId: number, listId: string, request: ItemsPageRequest): Buffer | undefined {
    const list = this.owned.keptListForRead(userId, listId);
    return list && this.pages.get(this.pageKey(list, request).key);
  }

  /** One page of the mirror as the JSON of `BanListItemsPage`, serialised once per version of the list. */
  async pageJson(userId: number, listId: string, request: ItemsPageRequest): Promise<Buffer> {
    const list = await this.owned.requireListForRead(userId, listId);
    const { key, order, exact } = this.pageKey(list, request);
    const cached = this.pages.get(key);
    if (cached !== undefined) return cached;
    const { page, per_page: perPage, sort, search } = request;
    const by = orderOf(list, sort);

    const offset = (page - 1) * perPage;
    let items: BanListItemRecord[] = [];
    let total = list.itemsCount;
    let capped = false;
    if (!search) {
      if (offset < total) items = await this.readPage(list, { sort: by, order, limit: perPage }, offset);
    } else {
      if (offset >= SEARCH_MATCHES_MAX) {
        throw new AppError(
          'BAD_REQUEST',
          `A search shows its first ${SEARCH_MATCHES_MAX.toLocaleString('en-US')} matches. Narrow it down to see the others.`,
        );
      }
      const filter = await this.filterFor(list, search);
      const query = { filter, sort: by, order, limit: perPage, start: { offset } };
      let reachable: number;
      if (exact !== undefined) {
        total = exact;
        reachable = Math.min(exact, SEARCH_MATCHES_MAX);
        if (offset < reachable) items = await this.items.page(list.ref, query);
      } else {
        // Counted only so far past this page, to answer it at once: the exact count is a call of its own.
        const limit = Math.min(offset + perPage * (1 + BAN_LIST_ITEM_SEARCH_PAGES_AHEAD), SEARCH_MATCHES_MAX);
        const countKey = [list.ref, list.itemsVersion, JSON.stringify(filter), limit].join('\u0000');
        let count = this.counts.get(countKey);
        if (count === undefined) {
          // The page and its count in one statement: one round trip fewer the first time.
          ({ items, count } = await this.items.pageAndCount(list.ref, query, limit + 1));
          this.counts.set(countKey, count);
        } else {
          items = await this.items.page(list.ref, query);
        }
        total = reachable = Math.min(count, limit);
        capped = count > limit;
      }
      // The matches past the reachable ones are not shown.
      items = items.slice(0, Math.max(reachable - offset, 0));
    }
    const json = Buffer.from(
      JSON.stringify({
        items: items.map(toItemDto),
        totalItems: total,
        totalItemsCapped: capped,
      } satisfies BanListItemsPage),
    );
    this.pages.set(key, json);
    return json;
  }

  /**
   * What a search matches: comments (see `commentMatchFor`), and values starting with it. In an IP list
   * a value can only start with something shaped like an IP address, and when few do, they are read
   * first.
   */
  async filterFor(list: BanListRecord, text: string): Promise<ItemFilter> {
    const comments = commentMatchFor(text);
    if (!comments) return { kind: 'value', text };
    if (list.kind !== 'ip') return { kind: 'commentOrValue', text, comments };
    if (!IP_PREFIX.test(text)) return { kind: 'comment', text, comments };
    const values = await this.items.countValuesStartingWith(list.ref, text, FEW_VALUES + 1);
    return values <= FEW_VALUES
      ? { kind: 'fewValuesOrComment', text, comments }
      : { kind: 'commentOrValue', text, comments };
  }

  /**
   * How many items a search matches, all of them (every item without a search): counted once per
   * version of the list and search, requests asking meanwhile share the count. Pages do not wait for
   * it (a broad search's count reads every match); the screen asks for it once a page says
   * `totalItemsCapped`, and pages asked for afterwards carry it.
   */
  async count(userId: number, listId: string, search: string): Promise<BanListItemsCount> {
    const list = await this.owned.requireListForRead(userId, listId);
    if (!search) return { totalItems: list.itemsCount };
    const key = this.exactCountKey(list, search);
    let entry = this.exactCounts.get(key);
    if (!entry) {
      const counted: ExactCount = {
        promise: this.filterFor(list, search).then((filter) => this.items.count(list.ref, filter)),
      };
      counted.promise.then(
        (value) => {
          counted.value = value;
        },
        // A failed count (a 503, a timeout) is not kept: the next request counts again.
        () => this.exactCounts.delete(key),
      );
      this.exactCounts.set(key, counted);
      entry = counted;
    }
    return { totalItems: await entry.promise };
  }

  /** The page's key in `pages`: the list's version, the request and the search's exact count if known. */
  private pageKey(list: BanListRecord, request: ItemsPageRequest) {
    const order = request.order ?? (request.sort === 'id' ? 'desc' : 'asc');
    const { page, per_page: perPage, sort, search } = request;
    // Once a search's exact count is known (GET .../items/count), its pages carry it.
    const exact = search ? this.exactCounts.get(this.exactCountKey(list, search))?.value : undefined;
    const key = [list.ref, list.itemsVersion, page, perPage, sort, order, search, exact ?? ''].join('\u0000');
    return { key, order, exact };
  }

  private exactCountKey(list: BanListRecord, search: string): string {
    return [list.ref, list.itemsVersion, search].join('\u0000');
  }

  /**
   * One page of the whole list. Without deleted ids, the id order's page is read by a range of the
   * primary key from an id computed from the list's id range; otherwise, and in the IP Address,
   * Comment and Created On orders, by the list's order buckets (migration 038), which find any page
   * by its index: the last page is as quick as the first. A descending page is the ascending one
   * counted from the end, reversed. The other orders (and a list without buckets for an order) are
   * read by offset from the nearer end.
   */
  private async readPage(
    list: BanListRecord,
    ordering: { sort: ItemOrder; order: SortOrder; limit: number },
    offset: number,
  ): Promise<BanListItemRecord[]> {
    const total = list.itemsCount;
    const query = { ...ordering, filter: { kind: 'all' } as const };
    const ascending = query.order === 'asc';
    if (query.sort === 'id' && list.nextItemId - list.firstItemId === total) {
      const fromId = ascending ? list.firstItemId + offset : list.nextItemId - 1 - offset;
      return this.items.page(list.ref, { ...query, start: { fromId } });
    }
    const buckets = BUCKET_ORDERS[query.sort];
    if (buckets) {
      const rows = ascending
        ? await this.items.pageInBuckets(list.ref, buckets, offset, query.limit)
        : await this.items.pageInBuckets(
            list.ref,
            buckets,
            Math.max(total - offset - query.limit, 0),
            Math.min(query.limit, total - offset),
          );
      if (rows) return ascending ? rows : rows.reverse();
    }
    if (
      UNINDEXED_SORTS.has(query.sort) &&
      Math.min(offset + query.limit, total - offset) > UNINDEXED_SORT_DEPTH
    ) {
      throw new AppError(
        'BAD_REQUEST',
        `Sorted by Comment or Created On, pages reach ${UNINDEXED_SORT_DEPTH.toLocaleString('en-US')} items from either end. ` +
          'Sort by No or IP Address, or search, to see the others.',
      );
    }
    if (offset + query.limit / 2 <= total / 2)
      return this.items.page(list.ref, { ...query, start: { offset } });
    const end = Math.min(offset + query.limit, total);
    const reversed = await this.items.page(list.ref, {
      ...query,
      order: ascending ? 'desc' : 'asc',
      limit: end - offset,
      start: { offset: total - end },
    });
    return reversed.reverse();
  }

  /**
   * Adds an item: refused when the mirror or Cloudflare already has it (Cloudflare would silently
   * overwrite its comment), written at Cloudflare and awaited, then recorded with Cloudflare's id.
   * `list`: its Cloudflare id, or the person's list as just looked up (a job naming it in its result).
   */
  async add(
    actor: ItemActor,
    list: string | BanListRecord,
    request: AddBanListItemRequest,
  ): Promise<BanListItem> {
    const userId = actor.userId;
    // Counted from when the request came, not from when Cloudflare is done.
    const expiresAt = expiresAtOf(request.expires ?? 'never');
    if (typeof list === 'string') list = await this.owned.requireList(userId, list);
    const value = parseItemValue(list.kind, request.ip);
    if (typeof value === 'string') throw new AppError('BAD_REQUEST', value);
    const cf = await this.owned.clientOf(userId, list);
    return this.turns.writing(list.ref, async () => {
      const inMirror = await this.items.valuesStartingWith(list.ref, mirrorPrefixOf(value));
      if (inMirror.some((stored) => keyOfMirrorValue(list.kind, stored) === value.key))
        throw duplicate(value.value);
      if (await findAtCloudflare(cf, list, value)) {
        throw duplicate(value.value, ' at Cloudflare (use Update from Cloudflare to see it)');
      }
      // The item as Cloudflare has it, when its write's outcome had to be found out.
      const recovered = await this.writes.atCloudflare(list, 1, async () => {
        try {
          await writeListItems(cf, list.accountId, () =>
            cf.rules.lists.items.create(list.listId, {
              account_id: list.accountId,
              body: [{ ...value.input, comment: request.comment }],
            }),
          );
          return undefined;
        } catch (err) {
          if (!(err instanceof WriteOutcomeUnknown)) {
            const refusal = refusalOf(err);
            if (refusal !== undefined) await this.bans?.refused(userId, list, value.value, refusal);
            throw err;
          }
          // Cloudflare may have the item all the same: looked for, in the account's turn.
          const what = `adding ${value.value}`;
          let looked;
          try {
            looked = await lookAfterLostWrite(cf, list, err, () => findAtCloudflare(cf, list, value));
          } catch (lookFailure) {
            throw await this.reconciler.unsettled(userId, list, err, what, lookFailure);
          }
          if (looked.end.status === 'failed') {
            await this.bans?.refused(userId, list, value.value, looked.end.reason);
            throw new AppError('BAD_REQUEST', looked.end.reason);
          }
          if (looked.found || looked.end.status === 'completed') return looked.found;
          // Not seen, and its operation may still land: the list is read back later.
          throw await this.reconciler.unsettled(userId, list, err, what);
        }
      });
      const created = recovered ?? (await findAtCloudflare(cf, list, value));
      if (!created) {
        throw new AppError(
          'UPSTREAM',
          'Cloudflare accepted the item but does not list it. Please update from Cloudflare.',
        );
      }
      const item = await this.db.transaction(async (tx) => {
        const lists = new BanListsRepository(tx);
        const locked = await lists.lock(list.ref);
        if (!locked) throw banListNotFound();
        const inserted = await new BanListItemsRepository(tx).insert(
          list.ref,
          locked.nextItemId,
          toMirrorItem(created),
          { addedBy: { userId, name: actor.name }, addedVia: actor.via, expiresAt },
        );
        await new ItemHistoryRepository(tx).record(list.ref, [
          {
            itemId: inserted.itemId,
            value: inserted.ip,
            event: 'added',
            userId,
            actor: actor.name,
            addedVia: actor.via,
            expiresAt,
          },
        ]);
        await lists.recordAdded(list.ref, locked.nextItemId);
        return inserted;
      });
      await this.bans?.applied(userId, list.listId, value.value);
      return toItemDto(item);
    });
  }

  /**
   * Deletes an item at Cloudflare (awaiting the operation), then from the mirror, recording who in its
   * history (`by`: the actor, or the person's id when a job of theirs removes it). An imported item's
   * Cloudflare id is learned first (item-ids.ts); one Cloudflare no longer has is only removed here,
   * as a DELETE of an id Cloudflare lacks would (it completes without a change).
   */
  async delete(by: ItemActor | number, listId: string, id: number): Promise<void> {
    if ((await this.deleteMany(by, listId, [id])) === 0) throw new AppError('NOT_FOUND', 'Item not found.');
  }

  /**
   * Deletes items of a list as `delete` does one, in one write at Cloudflare (the servers' unbans of a
   * pass, many at a time); ids no longer in the mirror are left out. Answers how many it found to remove.
   */
  async deleteMany(by: ItemActor | number, listId: string, ids: readonly number[]): Promise<number> {
    const userId = typeof by === 'number' ? by : by.userId;
    const list = await this.owned.requireList(userId, listId);
    const cf = await this.owned.clientOf(userId, list);
    return this.turns.writing(list.ref, async () => {
      const found = await this.items.findByIds(list.ref, ids);
      if (found.length === 0) return 0;
      const what = found.length === 1 ? found[0]!.ip : `${found.length} items`;
      const known = await deleteAtCloudflare({ db: this.db, writes: this.writes }, cf, list, found).catch(
        async (err: unknown) => {
          if (!(err instanceof WriteOutcomeUnknown)) throw err;
          throw await this.reconciler.unsettled(userId, list, err, `removing ${what}`);
        },
      );
      // An imported item's Cloudflare id, learned on the way: its history goes under that id.
      const learned = new Map(known.map((item) => [item.id, item.itemId]));
      const actor = typeof by === 'number' ? await this.nameOf(by) : by.name;
      return this.db.transaction(async (tx) => {
        const lists = new BanListsRepository(tx);
        if (!(await lists.lock(list.ref))) throw banListNotFound();
        const deleted = await new BanListItemsRepository(tx).deleteMany(
          list.ref,
          found.map((item) => item.id),
        );
        if (deleted.length === 0) return found.length;
        await lists.recordDeletedMany(list.ref, deleted.length);
        await new ItemHistoryRepository(tx).record(
          list.ref,
          deleted.map((item) => ({
            itemId: learned.get(item.id) ?? item.itemId,
            value: item.ip,
            event: 'removed' as const,
            userId,
            actor,
          })),
        );
        return found.length;
      });
    });
  }

  /** The person's e-mail, as the history names them. */
  private async nameOf(userId: number): Promise<string> {
    const [row] = await this.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]);
    return row?.email ?? `user ${userId}`;
  }

  /** The item's history: its value's in the list (see ItemHistoryRepository.forValue). */
  async history(userId: number, listId: string, id: number): Promise<BanListItemHistory> {
    const list = await this.owned.requireListForRead(userId, listId);
    const item = await this.items.findById(list.ref, id);
    if (!item) throw new AppError('NOT_FOUND', 'Item not found.');
    return {
      value: item.ip,
      events: await new ItemHistoryRepository(this.db).forValue(list.ref, item.ip),
    };
  }

  /**
   * Changes an item's expiry (Guardian's own: Cloudflare has none, so nothing is sent there), in its
   * turn with the list's other writes, and records it in the item's history.
   */
  async changeExpiry(
    actor: ItemActor,
    listId: string,
    id: number,
    expires: ItemExpiry,
  ): Promise<BanListItem> {
    const expiresAt = expiresAtOf(expires);
    const list = await this.owned.requireList(actor.userId, listId);
    return this.turns.writing(list.ref, () =>
      this.db.transaction(async (tx) => {
        const lists = new BanListsRepository(tx);
        if (!(await lists.lock(list.ref))) throw banListNotFound();
        const item = await new BanListItemsRepository(tx).setExpiry(list.ref, id, expiresAt);
        if (!item) throw new AppError('NOT_FOUND', 'Item not found.');
        await new ItemHistoryRepository(tx).record(list.ref, [
          {
            itemId: item.itemId,
            value: item.ip,
            event: 'expiry_changed',
            userId: actor.userId,
            actor: actor.name,
            expiresAt,
          },
        ]);
        await lists.recordUpdated(list.ref);
        return toItemDto(item);
      }),
    );
  }

  /** Makes the list's mirror equal to Cloudflare (see `syncMirror`). */
  async sync(userId: number, listId: string): Promise<BanList> {
    const list = await this.owned.requireList(userId, listId);
    const cf = await this.owned.clientOf(userId, list);
    return this.turns.writing(list.ref, async () => {
      // Read again once it is this sync's turn: a write queued before it may have changed the list.
      const current = await this.lists.findOwned(userId, list.ref);
      if (!current) throw banListNotFound();
      return toBanListDto(await syncMirror(this.db, cf, current));
    });
  }
}
