import type { BanList } from '@guardian/contract';
import Cloudflare from 'cloudflare';
import { accountListsAnswer, usableAnswer } from '../../cloudflare/answers';
import type { AccountRecord } from '../accounts';
import { banListNotFound, toBanListDto } from './owned-lists';
import { syncMirror } from './mirror-sync';
import type { GuardianJobHandler } from '../../jobs/job-kinds';
import type { JobsService } from '../../jobs/jobs.service';
import type { Db } from '../../db';
import type { OwnedLists } from './owned-lists';
import type { ListTurns } from './list-turns';
import type { BanListsRepository } from './ban-lists.repository';
import type { BanListParts } from './ban-list-parts';

/**
 * Queues a list's sync for its owner, not waited for: retried, kept across a restart, shown in the
 * jobs view (an account's lists brought in; a list read back after a write whose answer was lost).
 * A sync of the list still queued serves: it has read nothing yet. One under way does not (it may
 * have read the list before the write that asks for this one).
 */
export function queueListSync(
  jobs: JobsService,
  userId: number,
  list: { accountRef: number; listName: string; listId: string },
) {
  return jobs.queue.enqueue(
    {
      kind: 'ban-list-sync',
      userId,
      accountId: list.accountRef,
      target: list.listName,
      data: { listId: list.listId },
    },
    'queued',
  );
}

/**
 * "Update from Cloudflare" of one list as a job (src/jobs/): the call waits for a short sync and
 * answers the list as before; a longer one answers 202 with its job, which goes on (and survives a
 * restart) while the screen shows its progress.
 */
export class BanListSyncJobs {
  private readonly db: Db;
  private readonly owned: OwnedLists;
  private readonly turns: ListTurns;
  private readonly lists: BanListsRepository;
  constructor(
    parts: Pick<BanListParts, 'db' | 'owned' | 'turns' | 'lists'>,
    private readonly jobs: JobsService,
  ) {
    ({ db: this.db, owned: this.owned, turns: this.turns, lists: this.lists } = parts);
  }

  /** The job's work: the same steps as the in-request sync, with progress and a way to stop. */
  readonly run: GuardianJobHandler<'ban-list-sync'> = async ({ job, signal, progress, flushProgress }) => {
    const { listId } = job.data;
    let total: number | null = null;
    const list = await this.owned.requireList(job.userId, listId);
    const cf = await this.owned.clientOf(job.userId, list);
    return this.turns.writing(list.ref, async () => {
      // Read again once it is this sync's turn: a write queued before it may have changed the list.
      const current = await this.lists.findOwned(job.userId, list.ref);
      if (!current) throw banListNotFound();
      const synced = await syncMirror(this.db, cf, current, {
        signal,
        onTotal: (count) => {
          total = count;
          progress(0, count);
        },
        onProgress: (done) => progress(done, total),
        onItemsStored: flushProgress,
      });
      return toBanListDto(synced);
    });
  };

  /**
   * Starts the sync of the person's list; the list when it ended within the wait, else the job. A
   * sync of the list already queued or under way (the one started when its account was added, or the
   * person's own press a moment ago) is the one followed: the list is not read from Cloudflare twice.
   */
  async sync(userId: number, listId: string) {
    const list = await this.owned.requireList(userId, listId);
    return this.jobs.startAndWait<BanList>(
      {
        kind: 'ban-list-sync',
        userId,
        accountId: list.accountRef,
        target: list.listName,
        data: { listId },
      },
      'queued-or-running',
    );
  }

  /**
   * A newly added account's lists brought in (issue 35 item 5): recorded from one read of the
   * account's lists, then each list's sync queued as a job of its own, not waited for (retried, kept
   * across a restart; the jobs view shows its progress), so the lists are there at once and their
   * counts as each sync ends. Answers how many lists. A token that may not read lists (403) brings none.
   */
  async bringIn(userId: number, account: AccountRecord): Promise<number> {
    const cf = this.owned.clientFor(account);
    let answer: unknown;
    try {
      answer = (await cf.rules.lists.list({ account_id: account.accountId })).result;
    } catch (err) {
      if (err instanceof Cloudflare.APIError && err.status === 403) return 0;
      throw err;
    }
    const lists = usableAnswer(accountListsAnswer, answer, `the lists of "${account.accountName}"`);
    for (const list of lists) {
      await this.lists.upsert(account.id, { id: list.id, name: list.name, kind: list.kind });
      await queueListSync(this.jobs, userId, {
        accountRef: account.id,
        listName: list.name,
        listId: list.id,
      });
    }
    if (lists.length > 0) this.owned.changed();
    return lists.length;
  }
}
