import type { Db } from '../../db';
import type { AnswerCaches } from '../../deps';
import type { AccountsRepository } from '../accounts';
import type { AccountListWrites } from './account-list-writes';
import type { BanListItemsRepository } from './ban-list-items.repository';
import type { BanListsRepository } from './ban-lists.repository';
import type { ListTurns } from './list-turns';
import type { OwnedLists } from './owned-lists';

/**
 * What the ban-list services are built from, once, at the composition root (services.ts): each
 * service takes the few it needs (`Pick<BanListParts, ...>`). Repositories here are bound to the app's
 * database; work inside a transaction builds its own on the transaction.
 */
export interface BanListParts {
  db: Db;
  /** The person's own lists, their Cloudflare clients, and what reads may reuse. */
  owned: OwnedLists;
  /** Writes to one list take turns. */
  turns: ListTurns;
  /** Lists writes at Cloudflare take turns per account, within its write budget. */
  writes: AccountListWrites;
  lists: BanListsRepository;
  items: BanListItemsRepository;
  accounts: AccountsRepository;
  answerCaches: AnswerCaches;
}

/** The parts of a service that writes lists at Cloudflare. */
export type ListWriterParts = Pick<BanListParts, 'db' | 'owned' | 'turns' | 'writes' | 'lists'>;

/**
 * A service that writes lists at Cloudflare (the lists themselves, their items, an import, the expiry),
 * keeping the parts every such write takes.
 */
export abstract class ListWriter {
  protected readonly db: Db;
  protected readonly owned: OwnedLists;
  protected readonly turns: ListTurns;
  protected readonly writes: AccountListWrites;
  protected readonly lists: BanListsRepository;

  protected constructor(parts: ListWriterParts) {
    ({ db: this.db, owned: this.owned, turns: this.turns, writes: this.writes, lists: this.lists } = parts);
  }
}
