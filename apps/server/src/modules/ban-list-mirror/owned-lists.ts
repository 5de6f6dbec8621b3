import type { BanList } from '@guardian/contract';
import type Cloudflare from 'cloudflare';
import { accountClient, cloudflareErrorToAppError, type AccountClientDeps } from '../../cloudflare';
import { AppError } from '../../app-error';
import { AnswerCache } from '../../answer-cache';
import type { AnswerCaches } from '../../deps';
import type { AccountRecord, AccountsRepository } from '../accounts';
import type { BanListRecord, BanListsRepository } from './ban-lists.repository';
import { listPurpose } from './list-purpose';

/** How long a read may reuse a list it looked up: another server process's changes show within this. */
const LIST_LOOKUP_TTL_MS = 1_000;
const LOOKED_UP_LISTS = 1_000;

export function toBanListDto(list: BanListRecord): BanList {
  return {
    id: list.ref,
    account_name: list.accountName,
    account_id: list.accountId,
    list_name: list.listName,
    list_id: list.listId,
    kind: list.kind,
    items: list.itemsCount,
    ...listPurpose(list.listName, list.purpose, list.rulePurpose),
  };
}

const lookupKey = (userId: number, listId: string) => `${userId}\u0000${listId}`;

export const banListNotFound = () => new AppError('NOT_FOUND', 'Ban list not found.');

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

/**
 * The person's own lists and their accounts' Cloudflare clients: another person's list is "not found".
 * Reads may reuse a list looked up within the second; every write to lists or items ends with
 * `changed()` (ListTurns does it), so a write shows at once in this process.
 */
export class OwnedLists {
  private readonly lookedUp: AnswerCache<BanListRecord>;
  private changeCount = 0;

  constructor(
    private readonly lists: BanListsRepository,
    private readonly accounts: AccountsRepository,
    private readonly clients: AccountClientDeps,
    answerCaches: AnswerCaches,
  ) {
    this.lookedUp = new AnswerCache(answerCaches, { max: LOOKED_UP_LISTS, ttl: LIST_LOOKUP_TTL_MS });
  }

  /** The person's list with Cloudflare's id `listId`. */
  async requireList(userId: number, listId: string): Promise<BanListRecord> {
    const list = await this.lists.findOwnedByListId(userId, listId);
    if (!list) throw banListNotFound();
    return list;
  }

  /**
   * The list for a read (its count and version key the page cache): looked up at most once a second
   * per person and list, since pages are read far more often than lists change.
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

  /** Every write to a list or its items ends with this. */
  changed(): void {
    this.changeCount += 1;
    this.lookedUp.clear();
  }

  /** The SDK client of the list's account (the list was found through the person's accounts). */
  async clientOf(userId: number, list: BanListRecord): Promise<Cloudflare> {
    const account = await this.accounts.findOwned(userId, list.accountRef);
    if (!account) throw banListNotFound();
    return this.clientFor(account);
  }

  /** The SDK client of one of the person's accounts. */
  clientFor(account: AccountRecord): Cloudflare {
    return accountClient(this.clients, account);
  }
}
