import type { BanList } from '@guardian/contract';
import Cloudflare from 'cloudflare';
import type { AppDeps } from '../../deps';
import { accountClient, cloudflareErrorToAppError, isCloudflareNotFound as notFound } from '../../cloudflare';
import type { Leases } from '../../db/leases';
import { AppError } from '../../app-error';
import { AccountsRepository, type AccountRecord } from '../accounts/accounts.repository';
import type { ListWriteBudget } from '../jobs/list-write-budget';
import { BanListsRepository, type BanListRecord } from './banlists.repository';
import { AnswerCache } from './answer-cache';
import { listPurpose } from './list-purpose';

/** How long a read may reuse a list it looked up: another server process's changes show within this. */
const LIST_LOOKUP_TTL_MS = 1_000;
const LOOKED_UP_LISTS = 1_000;
/**
 * The longest a write waits for its list's turn, held by a write in this or another server process (a
 * sync of 500,000 items takes ~10 s): then a 409 in words, and the write is not made.
 */
export const LIST_TURN_WAIT_MS = 60_000;

export function toBanListDto(list: BanListRecord): BanList {
  return {
    id: list.ref,
    account_name: list.accountName,
    account_id: list.accountId,
    list_name: list.listName,
    list_id: list.listId,
    kind: list.kind,
    items: list.itemsCount,
    ...listPurpose(list.listName, list.purpose),
  };
}

const lookupKey = (userId: number, listId: string) => `${userId}\u0000${listId}`;

export const banListNotFound = () => new AppError('NOT_FOUND', 'Ban list not found.');

/** Cloudflare answered 404 (cloudflare/errors.ts). */
export function isCloudflareNotFound(err: unknown): boolean {
  return notFound(err);
}

/**
 * Runs a Cloudflare step and, when it fails, says which account or list it was about: with several
 * accounts and lists in one action, "Cloudflare is unavailable" alone would not tell the person where.
 */
export async function about<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const appError = err instanceof AppError ? err : cloudflareErrorToAppError(err);
    if (!appError) throw err;
    throw new AppError(appError.code, `${subject}: ${appError.message}`, { ...appError.details, cause: err });
  }
}

/** What both ban-list services share: finding the person's own lists and their Cloudflare clients. */
export class BanListAccess {
  readonly lists: BanListsRepository;
  readonly accounts: AccountsRepository;
  private readonly lookedUp: AnswerCache<BanListRecord>;

  constructor(
    readonly deps: AppDeps,
    /**
     * One per app: where writes to one list (item writes, syncs, emptying, deleting), and list item
     * writes of one Cloudflare account, take turns, in this process and across processes.
     */
    private readonly leases: Leases,
    /** The longest a person waits for the account's turn (the interactive Cloudflare deadline). */
    private readonly accountWaitMs: number,
    /** Cloudflare's Lists write budget per account, counted in the database (none: not counted). */
    private readonly writeBudget?: ListWriteBudget,
    /** The longest a write waits for its list's turn (tests shorten it). */
    private readonly listWaitMs = LIST_TURN_WAIT_MS,
  ) {
    this.lists = new BanListsRepository(deps.db);
    this.accounts = new AccountsRepository(deps.db);
    this.lookedUp = new AnswerCache(deps.answerCaches, { max: LOOKED_UP_LISTS, ttl: LIST_LOOKUP_TTL_MS });
  }

  /** The person's list with Cloudflare's id `listId`; another person's list is "not found". */
  async requireList(userId: number, listId: string): Promise<BanListRecord> {
    const list = await this.lists.findOwnedByListId(userId, listId);
    if (!list) throw banListNotFound();
    return list;
  }

  /**
   * The list for a read (its count and version key the page cache): looked up at most once a second
   * per person and list, since pages are read far more often than lists change. Writes made here
   * call `changed()`, so they show at once.
   */
  async requireListForRead(userId: number, listId: string): Promise<BanListRecord> {
    const recent = this.keptListForRead(userId, listId);
    if (recent) return recent;
    const list = await this.requireList(userId, listId);
    this.lookedUp.set(lookupKey(userId, listId), list);
    return list;
  }

  /** The list for a read if it was looked up within the second (see requireListForRead), else undefined. */
  keptListForRead(userId: number, listId: string): BanListRecord | undefined {
    return this.lookedUp.get(lookupKey(userId, listId));
  }

  /** How many writes to lists or their items this process has made: reads kept for a moment check it. */
  get changes(): number {
    return this.changeCount;
  }
  private changeCount = 0;

  /** Every write to a list or its items ends with this. */
  changed(): void {
    this.changeCount += 1;
    this.lookedUp.clear();
  }

  /**
   * Runs a write to the list after the writes queued before it, in this process and in every other on
   * this database (the lease `list-turn:<list>`, whose waiters in one process queue first come, first
   * served): a sync's load is swapped in only if no add landed meanwhile, so an add running beside it
   * would make it fail. A turn that does not come within `listWaitMs` is refused with a 409 in words,
   * whoever holds it. Reads see the write at once.
   */
  async writing<T>(ref: number, work: () => Promise<T>): Promise<T> {
    const busy = () =>
      new AppError(
        'CONFLICT',
        'Another change to this list (a sync, an import or a removal) is still running. Please try again in a moment.',
      );
    try {
      return await this.leases.run(`list-turn:${ref}`, { waitMs: this.listWaitMs, busy }, work);
    } finally {
      this.changed();
    }
  }

  /**
   * Runs a list item write at Cloudflare and the wait for its bulk operation. Cloudflare allows one
   * pending bulk operation per account and answers 429 to a write sent meanwhile, to any list of the
   * account: so these writes take turns per Cloudflare account, in every server process on this
   * database. After `accountWaitMs` without a turn the person gets a 409 and nothing is sent.
   * Once it is the write's turn, its `changes` (item changes: added, replaced or deleted items) are
   * taken from the account's Lists write budget; past it the write is refused (429) and not sent.
   * Callers hold the list's own turn (`writing`) first, never the other way round.
   */
  atCloudflare<T>(list: BanListRecord, changes: number, work: () => Promise<T>): Promise<T> {
    const send = async () => {
      await this.writeBudget?.take(list.accountId, list.accountName, changes);
      return work();
    };
    return this.leases.run(
      `list-writes:${list.accountId}`,
      {
        waitMs: this.accountWaitMs,
        busy: () =>
          new AppError(
            'CONFLICT',
            `Another change to the lists of "${list.accountName}" is still running at Cloudflare. Please try again in a moment.`,
          ),
      },
      send,
    );
  }

  /**
   * Counts a Lists write that is not an item write (creating or deleting a list) in the account's
   * write budget, or refuses it (429) before it is sent.
   */
  async listWrite(account: { accountId: string; accountName: string }): Promise<void> {
    await this.writeBudget?.take(account.accountId, account.accountName, 0);
  }

  /** The SDK client of the list's account (the list was found through the person's accounts). */
  async clientOf(userId: number, list: BanListRecord): Promise<Cloudflare> {
    const account = await this.accounts.findOwned(userId, list.accountRef);
    if (!account) throw banListNotFound();
    return this.clientFor(account);
  }

  /** The SDK client of one of the person's accounts. */
  clientFor(account: AccountRecord): Cloudflare {
    return accountClient(this.deps, account);
  }
}
