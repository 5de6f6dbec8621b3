import type { AddBanListRequest, BanList, BanListPurpose } from '@guardian/contract';
import { isCloudflareNotFound, waitForBulkOperation } from '../../cloudflare';
import { accountListsAnswer, usableAnswer } from '../../cloudflare/answers';
import { AppError } from '../../app-error';
import { checkedAfterLoss, createChecked, outcomeUnknown, type Checked } from '../../cloudflare/create-once';
import { about, banListNotFound, toBanListDto } from '../ban-list-mirror';
import { BanListItemsRepository, type RestoredItem } from '../ban-list-mirror';
import { BanListsRepository, type BanListRecord, type CloudflareListSummary } from '../ban-list-mirror';
import { ItemHistoryRepository, type NewItemEvent } from '../ban-list-mirror';
import { keyOfMirrorValue, parseItemValue } from '../ban-list-mirror';
import { listPurpose } from '../ban-list-mirror';
import { syncMirror } from '../ban-list-mirror';
import type { KeptListItems, RestoringPerson, SnapshotsService } from '../snapshots';
import type { SnapshotItem, SnapshotList } from '../snapshots';
import type { AccountsRepository } from '../accounts';
import { ListWriter, type BanListParts, type ListWriterParts } from '../ban-list-mirror';

/**
 * Items a restore adds per Cloudflare write: each write is one bulk operation (one pending per
 * account, 30,000 modifying requests per 12 hours), so few large ones; about 1 MB of JSON each.
 */
const RESTORE_BATCH = 10_000;

/** What a job gives a long operation: a way to stop between steps and to say how far it got. */
export interface Steps {
  signal?: AbortSignal;
  /** `done` of `total` steps (accounts read, lists emptied). */
  progress?: (done: number, total: number) => void;
  /** The job doing it: a run of it again keeps to the same snapshot (Clean All). */
  jobId?: string;
}

const restoredEvent = (person: RestoringPerson, item: RestoredItem): NewItemEvent => ({
  itemId: item.itemId,
  value: item.value,
  event: 'restored',
  userId: person.userId,
  actor: person.name,
  expiresAt: item.expiresAt,
});

const toListToKeep = (list: BanListRecord) => ({
  ref: list.ref,
  accountRef: list.accountRef,
  listId: list.listId,
  listName: list.listName,
  kind: list.kind,
  items: list.itemsCount,
});

/**
 * The person's ban lists: Cloudflare lists of their accounts, mirrored locally. Every write goes to
 * Cloudflare first; only what Cloudflare accepted is recorded.
 */
export class BanListsService extends ListWriter {
  private readonly accounts: AccountsRepository;
  constructor(
    parts: ListWriterParts & Pick<BanListParts, 'accounts'>,
    /** Clean All and deleting a list keep what they remove here first, so it can be restored. */
    private readonly snapshots: SnapshotsService,
  ) {
    super(parts);
    this.accounts = parts.accounts;
  }

  async list(userId: number): Promise<BanList[]> {
    return (await this.lists.listForUser(userId)).map(toBanListDto);
  }

  /**
   * Creates the list at Cloudflare (which checks the name, the kind and the plan's quota), then records
   * it. When the create's answer was lost, the account's lists are read back (one read, names are
   * unique in an account): the list found there is recorded and the answer says so.
   */
  async create(userId: number, request: AddBanListRequest): Promise<Checked<BanList>> {
    const account = await this.accounts.findOwnedByName(userId, request.account_name);
    if (!account) throw new AppError('NOT_FOUND', `Account "${request.account_name}" not found.`);
    const cf = this.owned.clientFor(account);
    await this.writes.listWrite(account);
    const { value: created, outcome } = await createChecked(
      () =>
        cf.rules.lists.create({ account_id: account.accountId, name: request.list_name, kind: request.kind }),
      async () => {
        const answer = await cf.rules.lists.list({ account_id: account.accountId });
        // Checked as Update checks it: at most an Enterprise account's lists, each a list.
        usableAnswer(accountListsAnswer, answer.result, `the lists of "${account.accountName}"`);
        return answer.result.find((list) => list.name === request.list_name && list.kind === request.kind);
      },
      'the list was created',
    );
    const { ref, itemsCount, purpose } = await this.lists.upsert(account.id, created);
    const value = {
      id: ref,
      account_name: account.accountName,
      account_id: account.accountId,
      list_name: created.name,
      list_id: created.id,
      kind: created.kind,
      items: itemsCount,
      ...listPurpose(created.name, purpose),
    };
    return { value, outcome };
  }

  /** Records what the person says the list is for (null: back to its name's); Guardian only. */
  async setPurpose(userId: number, ref: number, purpose: BanListPurpose | null): Promise<BanList> {
    const list = await this.lists.findOwned(userId, ref);
    if (!list) throw banListNotFound();
    await this.lists.setPurpose(list.ref, purpose);
    return toBanListDto({ ...list, purpose });
  }

  /**
   * Deletes the list at Cloudflare (already gone there counts as deleted), then its mirror. When the
   * delete's answer was lost, the list is read back (one read): gone, the mirror drops it and the
   * answer says so; still there, the mirror keeps it and the answer says it was not deleted.
   */
  async delete(userId: number, ref: number): Promise<Checked<void>> {
    const list = await this.lists.findOwned(userId, ref);
    if (!list) throw banListNotFound();
    const cf = await this.owned.clientOf(userId, list);
    return this.turns.writing(list.ref, async () => {
      await this.snapshots.keepBanLists(userId, 'ban-list', [toListToKeep(list)]);
      await this.writes.listWrite(list);
      let outcome: string | undefined;
      try {
        await cf.rules.lists.delete(list.listId, { account_id: list.accountId });
      } catch (err) {
        // Lost (a retry's 404 included): read the list back; unreadable, the failure stands.
        const lost = outcomeUnknown(err);
        const gone =
          isCloudflareNotFound(err) ||
          (lost &&
            (await cf.rules.lists.get(list.listId, { account_id: list.accountId }).then(
              () => false,
              (readFailure: unknown) => (isCloudflareNotFound(readFailure) ? true : Promise.reject(err)),
            )));
        if (!gone) {
          throw lost
            ? new AppError('UPSTREAM', `${checkedAfterLoss('the list was not deleted')} Please try again.`, {
                cause: err,
              })
            : err;
        }
        if (lost) outcome = checkedAfterLoss('the list was deleted');
      }
      await this.db.transaction(async (tx) => {
        await new BanListItemsRepository(tx).dropAll(list.ref);
        await new BanListsRepository(tx).delete(list.ref);
      });
      return { value: undefined, outcome };
    });
  }

  /**
   * Pulls the lists of every account of the person and makes the local ones match: new lists are
   * added (their items arrive with the list's own sync), renamed ones renamed, vanished ones removed.
   * Nothing changes unless every account answered. Progress: accounts read of all; a stop asked
   * for before the last one answered changes nothing.
   */
  async update(userId: number, steps: Steps = {}): Promise<BanList[]> {
    const accounts = await this.accounts.listForUser(userId);
    let read = 0;
    steps.progress?.(0, accounts.length);
    const pulled = await Promise.all(
      accounts.map((account) =>
        about(`Could not read the lists of "${account.accountName}"`, async () => {
          steps.signal?.throwIfAborted();
          const cf = this.owned.clientFor(account);
          // One answer (Cloudflare does not page lists), checked: at most an Enterprise account's lists.
          const answer = await cf.rules.lists.list({ account_id: account.accountId });
          const lists: CloudflareListSummary[] = usableAnswer(
            accountListsAnswer,
            answer.result,
            `the lists of "${account.accountName}"`,
          ).map((list) => ({ id: list.id, name: list.name, kind: list.kind }));
          steps.progress?.(++read, accounts.length);
          return { accountRef: account.id, lists };
        }),
      ),
    );
    steps.signal?.throwIfAborted();
    await this.db.transaction(async (tx) => {
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
   * mirror right after its own. On a failure the lists emptied so far stay empty on both sides; so
   * they do when a stop is asked for (between lists). Progress: lists emptied of all.
   */
  async clean(userId: number, steps: Steps = {}): Promise<BanList[]> {
    const lists = await this.lists.listForUser(userId);
    if (lists.length > 0) {
      await this.snapshots.keepBanLists(userId, 'clean-all', lists.map(toListToKeep), steps.jobId);
    }
    steps.progress?.(0, lists.length);
    for (const [index, list] of lists.entries()) {
      steps.signal?.throwIfAborted();
      const cf = await this.owned.clientOf(userId, list);
      await this.turns.writing(list.ref, async () => {
        await about(`Could not empty "${list.listName}"`, () =>
          // A replace with nothing: every item of the list is one change.
          this.writes.atCloudflare(list, list.itemsCount, async () => {
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
        await this.db.transaction(async (tx) => {
          const repository = new BanListsRepository(tx);
          const locked = await repository.lock(list.ref);
          if (!locked) return;
          await new BanListItemsRepository(tx).dropAll(list.ref);
          await repository.recordReplaced(list.ref, locked.nextItemId, 0);
        });
      });
      steps.progress?.(index + 1, lists.length);
    }
    return this.list(userId);
  }

  /**
   * Puts a snapshot's list back: the list itself first when it was deleted (or the person's list of
   * that name in that account, if one exists again), then its items in batches, then the mirror is
   * read again from Cloudflare, so it shows exactly what Cloudflare holds. Cloudflare keeps no
   * provenance and dates the items anew: the items it took back are then given what they had (their
   * date, who added them, how, their expiry, their history) and a 'restored' event naming `person`.
   */
  async restore(
    person: RestoringPerson,
    kept: SnapshotList,
    items: KeptListItems,
    options: { recreate: boolean },
  ): Promise<void> {
    const { userId } = person;
    const list = options.recreate
      ? await this.recreate(userId, kept)
      : await this.lists.findOwnedByListId(userId, kept.listId);
    if (!list) throw new AppError('NOT_FOUND', `The list "${kept.listName}" no longer exists.`);
    const cf = await this.owned.clientOf(userId, list);
    await this.turns.writing(list.ref, async () => {
      for (let afterId = 0; ;) {
        const batch = await items.after(afterId, RESTORE_BATCH);
        if (batch.length === 0) break;
        afterId = batch[batch.length - 1]!.id;
        const body = batch.flatMap((item) => {
          const value = parseItemValue(list.kind, item.value);
          return typeof value === 'string' ? [] : [{ ...value.input, comment: item.comment }];
        });
        await about(`Could not restore "${list.listName}"`, () =>
          this.writes.atCloudflare(list, body.length, async () => {
            const { operation_id } = await cf.rules.lists.items.create(list.listId, {
              account_id: list.accountId,
              body,
            });
            await waitForBulkOperation(cf, list.accountId, operation_id);
          }),
        );
      }
      const current = await this.lists.findOwned(userId, list.ref);
      if (!current) return;
      await syncMirror(this.db, cf, current);
      for (let afterId = 0; ;) {
        const batch = await items.after(afterId, RESTORE_BATCH);
        if (batch.length === 0) break;
        afterId = batch[batch.length - 1]!.id;
        await this.giveBack(person, list, batch, items);
      }
    });
  }

  /** Gives a batch of restored items, now in the mirror, what they had when they were kept. */
  private async giveBack(
    person: RestoringPerson,
    list: BanListRecord,
    batch: readonly SnapshotItem[],
    items: KeptListItems,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const lists = new BanListsRepository(tx);
      if (!(await lists.lock(list.ref))) return;
      const restored = await new BanListItemsRepository(tx).restoreKept(
        list.ref,
        batch.map((item) => ({ ...item, key: keyOfMirrorValue(list.kind, item.value) })),
      );
      if (restored.length === 0) return;
      // A deleted list's history was kept with its items: it is written again under their new ids.
      // Clean All's lists kept their items' history, found by value (migration 057): it goes on.
      if (items.putBackHistory) {
        const changed = restored.flatMap(({ keptItemId, itemId, value }) =>
          keptItemId === null ? [] : [{ keptItemId, itemId, value }],
        );
        await items.putBackHistory(tx, list.ref, changed);
      }
      await new ItemHistoryRepository(tx).record(
        list.ref,
        restored.map((item) => restoredEvent(person, item)),
      );
      await lists.recordUpdated(list.ref);
    });
  }

  private async recreate(userId: number, kept: SnapshotList): Promise<BanListRecord | undefined> {
    const existing = (await this.lists.listForUser(userId)).find(
      (list) => list.accountRef === kept.accountRef && list.listName === kept.listName,
    );
    if (existing) return existing;
    const account = await this.accounts.findOwned(userId, kept.accountRef);
    if (!account) return undefined;
    const cf = this.owned.clientFor(account);
    await this.writes.listWrite(account);
    const created = await about(`Could not create "${kept.listName}" again`, () =>
      cf.rules.lists.create({ account_id: account.accountId, name: kept.listName, kind: kept.kind }),
    );
    const { ref } = await this.lists.upsert(account.id, created);
    this.owned.changed();
    return this.lists.findOwned(userId, ref);
  }
}
