import type { AddBanListRequest, BanList } from '@guardian/contract';
import { waitForBulkOperation } from '../../cloudflare';
import { accountListsAnswer, usableAnswer } from '../../cloudflare/answers';
import { AppError } from '../../errors';
import {
  about,
  banListNotFound,
  isCloudflareNotFound,
  toBanListDto,
  type BanListAccess,
} from './ban-list-access';
import { BanListItemsRepository } from './ban-list-items.repository';
import { BanListsRepository, type CloudflareListSummary } from './banlists.repository';

/**
 * The person's ban lists: Cloudflare lists of their accounts, mirrored locally. Every write goes to
 * Cloudflare first; only what Cloudflare accepted is recorded.
 */
export class BanListsService {
  constructor(private readonly access: BanListAccess) {}

  async list(userId: number): Promise<BanList[]> {
    return (await this.access.lists.listForUser(userId)).map(toBanListDto);
  }

  /** Creates the list at Cloudflare (which checks the name, the kind and the plan's quota), then records it. */
  async create(userId: number, request: AddBanListRequest): Promise<BanList> {
    const account = await this.access.accounts.findOwnedByName(userId, request.account_name);
    if (!account) throw new AppError('NOT_FOUND', `Account "${request.account_name}" not found.`);
    const cf = this.access.cloudflare.clientFor(account);
    const created = await cf.rules.lists.create({
      account_id: account.accountId,
      name: request.list_name,
      kind: request.kind,
    });
    const { ref, itemsCount } = await this.access.lists.upsert(account.id, created);
    return {
      id: ref,
      account_name: account.accountName,
      account_id: account.accountId,
      list_name: created.name,
      list_id: created.id,
      kind: created.kind,
      items: itemsCount,
    };
  }

  /** Deletes the list at Cloudflare (already gone there counts as deleted), then its mirror. */
  async delete(userId: number, ref: number): Promise<void> {
    const list = await this.access.lists.findOwned(userId, ref);
    if (!list) throw banListNotFound();
    const cf = await this.access.clientOf(userId, list);
    await this.access.writing(list.ref, async () => {
      try {
        await cf.rules.lists.delete(list.listId, { account_id: list.accountId });
      } catch (err) {
        if (!isCloudflareNotFound(err)) throw err;
      }
      await this.access.deps.db.transaction(async (tx) => {
        await new BanListItemsRepository(tx).dropAll(list.ref);
        await new BanListsRepository(tx).delete(list.ref);
      });
    });
  }

  /**
   * Pulls the lists of every account of the person and makes the local ones match: new lists are
   * added (their items arrive with the list's own sync), renamed ones renamed, vanished ones removed.
   * Nothing changes unless every account answered.
   */
  async update(userId: number): Promise<BanList[]> {
    const accounts = await this.access.accounts.listForUser(userId);
    const pulled = await Promise.all(
      accounts.map((account) =>
        about(`Could not read the lists of "${account.accountName}"`, async () => {
          const cf = this.access.cloudflare.clientFor(account);
          // One answer (Cloudflare does not page lists), checked: at most an Enterprise account's lists.
          const answer = await cf.rules.lists.list({ account_id: account.accountId });
          const lists: CloudflareListSummary[] = usableAnswer(
            accountListsAnswer,
            answer.result,
            `the lists of "${account.accountName}"`,
          ).map((list) => ({ id: list.id, name: list.name, kind: list.kind }));
          return { accountRef: account.id, lists };
        }),
      ),
    );
    await this.access.deps.db.transaction(async (tx) => {
      const lists = new BanListsRepository(tx);
      const items = new BanListItemsRepository(tx);
      for (const { accountRef, lists: cloudflareLists } of pulled) {
        for (const ref of await lists.replaceAccountLists(accountRef, cloudflareLists))
          await items.dropAll(ref);
      }
    });
    return this.list(userId);
  }

  /**
   * Empties every list of the person at Cloudflare (one replace-with-nothing per list), each list's
   * mirror right after its own. On a failure the lists emptied so far stay empty on both sides.
   */
  async clean(userId: number): Promise<BanList[]> {
    const lists = await this.access.lists.listForUser(userId);
    for (const list of lists) {
      const cf = await this.access.clientOf(userId, list);
      await this.access.writing(list.ref, async () => {
        await about(`Could not empty "${list.listName}"`, () =>
          this.access.atCloudflare(list, async () => {
            try {
              const { operation_id } = await cf.rules.lists.items.update(list.listId, {
                account_id: list.accountId,
                body: [],
              });
              await waitForBulkOperation(cf, list.accountId, operation_id);
            } catch (err) {
              // A list Cloudflare no longer has holds no items there either.
              if (!isCloudflareNotFound(err)) throw err;
            }
          }),
        );
        await this.access.deps.db.transaction(async (tx) => {
          const repository = new BanListsRepository(tx);
          const locked = await repository.lock(list.ref);
          if (!locked) return;
          await new BanListItemsRepository(tx).dropAll(list.ref);
          await repository.recordReplaced(list.ref, locked.nextItemId, 0);
        });
      });
    }
    return this.list(userId);
  }
}
