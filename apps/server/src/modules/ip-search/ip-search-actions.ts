import {
  expiresAtOf,
  type BanEverywhereRequest,
  type IpSearchActionAnswer,
  type IpSearchJobResult,
  type RemoveMatchesRequest,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import { about } from '../ban-list-mirror';
import type { BanListItemsService } from '../ban-list-items';
import type { BanListRecord } from '../ban-list-mirror';
import type { ItemActor } from '../auth';
import { parseItemValue } from '../ban-list-mirror';
import type { GuardianJobHandler, GuardianJobKinds } from '../../jobs/job-kinds';
import type { NewJobOf } from '../../jobs/job-queue';
import { toJobDto, type JobsService } from '../../jobs/jobs.service';
import type { OwnedLists } from '../ban-list-mirror';
import type { BanListParts } from '../ban-list-mirror';

type ListOutcome = IpSearchJobResult['lists'][number];
/** One account's part of an action, as its job's kind and details. */
type AccountJob = {
  [K in 'ban-everywhere' | 'ip-search-remove']: Pick<NewJobOf<GuardianJobKinds, K>, 'kind' | 'data'>;
}['ban-everywhere' | 'ip-search-remove'];

interface AccountPart<T> {
  accountRef: number;
  accountName: string;
  accountId: string;
  lists: BanListRecord[];
  entries: T[];
}

/** The lists grouped by their account, in the order first named. */
function byAccount<T>(entries: { list: BanListRecord; entry: T }[]): AccountPart<T>[] {
  const parts = new Map<number, AccountPart<T>>();
  for (const { list, entry } of entries) {
    let part = parts.get(list.accountRef);
    if (!part) {
      part = {
        accountRef: list.accountRef,
        accountName: list.accountName,
        accountId: list.accountId,
        lists: [],
        entries: [],
      };
      parts.set(list.accountRef, part);
    }
    if (!part.lists.some((known) => known.ref === list.ref)) part.lists.push(list);
    part.entries.push(entry);
  }
  return [...parts.values()];
}

/**
 * The actions of the IP search's answer, across the person's accounts: "Ban everywhere" (one value
 * added to the chosen lists) and "Remove from lists" (the chosen matches deleted). Each account's part
 * is a job (src/jobs/) that goes through the ban-list items service, so every write takes the
 * list's turn and the account's Cloudflare turn and write budget (`AccountListWrites.atCloudflare`), is
 * refused when the value is already listed, and is mirrored as the Add and Delete of the items screen.
 * One account's failure fails its job (named in its error); the other accounts' jobs go on.
 */
export class IpSearchActions {
  private readonly owned: OwnedLists;
  constructor(
    parts: Pick<BanListParts, 'owned'>,
    private readonly items: BanListItemsService,
    private readonly jobs: JobsService,
  ) {
    ({ owned: this.owned } = parts);
  }

  readonly runBan: GuardianJobHandler<'ban-everywhere'> = async ({ job, signal, progress }) => {
    const { value, comment, listIds, actor, expiresAt } = job.data;
    const lists: ListOutcome[] = [];
    progress(0, listIds.length);
    for (const listId of listIds) {
      signal.throwIfAborted();
      const list = await this.owned.requireList(job.userId, listId);
      const outcome = await about(`The list "${list.listName}"`, async () => {
        try {
          await this.items.add({ ...actor, userId: job.userId }, list, {
            ip: value,
            comment,
            ...(expiresAt ? { expires: expiresAt } : {}),
          });
          return 'added' as const;
        } catch (err) {
          // The add refuses a value the list (or Cloudflare's copy of it) already holds: nothing to do.
          if (
            err instanceof AppError &&
            err.code === 'CONFLICT' &&
            err.message.includes('is already in this list')
          )
            return 'already' as const;
          throw err;
        }
      });
      lists.push({ list_id: list.listId, list_name: list.listName, outcome });
      progress(lists.length, listIds.length);
    }
    return { lists } satisfies IpSearchJobResult;
  };

  readonly runRemove: GuardianJobHandler<'ip-search-remove'> = async ({ job, signal, progress }) => {
    const { items: entries, actor } = job.data;
    const lists: ListOutcome[] = [];
    progress(0, entries.length);
    for (const { listId, itemId } of entries) {
      signal.throwIfAborted();
      const list = await this.owned.requireList(job.userId, listId);
      const outcome = await about(`The list "${list.listName}"`, async () => {
        try {
          await this.items.delete({ ...actor, userId: job.userId }, listId, itemId);
          return 'removed' as const;
        } catch (err) {
          // Removed meanwhile (another tab, a sync): what was asked for is done.
          if (err instanceof AppError && err.code === 'NOT_FOUND' && err.message === 'Item not found.')
            return 'gone' as const;
          throw err;
        }
      });
      lists.push({ list_id: list.listId, list_name: list.listName, outcome });
      progress(lists.length, entries.length);
    }
    return { lists } satisfies IpSearchJobResult;
  };

  /**
   * Ban everywhere: the value, checked against each chosen list's kind, added to every chosen list,
   * one job per account. Another person's list id is "not found" and nothing starts.
   */
  async ban(
    actor: ItemActor,
    request: BanEverywhereRequest,
  ): Promise<IpSearchActionAnswer & { ended: boolean }> {
    const userId = actor.userId;
    // A preset counts from now, not from when each account's job gets its turn.
    const expiresAt = expiresAtOf(request.expires ?? 'never')?.toISOString() ?? null;
    const listIds = [...new Set(request.list_ids)];
    const chosen: { list: BanListRecord; entry: string }[] = [];
    for (const listId of listIds) {
      const list = await this.owned.requireList(userId, listId);
      const value = parseItemValue(list.kind, request.value);
      if (typeof value === 'string')
        throw new AppError('BAD_REQUEST', `The list "${list.listName}": ${value}`);
      chosen.push({ list, entry: listId });
    }
    return this.start(userId, byAccount(chosen), (part) => ({
      kind: 'ban-everywhere',
      data: { value: request.value, comment: request.comment, listIds: part.entries, actor, expiresAt },
    }));
  }

  /** Remove from lists: each chosen match (a list of the person's and its item) deleted, one job per account. */
  async remove(
    actor: ItemActor,
    request: RemoveMatchesRequest,
  ): Promise<IpSearchActionAnswer & { ended: boolean }> {
    const userId = actor.userId;
    const seen = new Set<string>();
    const chosen: { list: BanListRecord; entry: { listId: string; itemId: number } }[] = [];
    for (const { list_id, item_id } of request.items) {
      const key = `${list_id}\u0000${item_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const list = await this.owned.requireList(userId, list_id);
      chosen.push({ list, entry: { listId: list_id, itemId: item_id } });
    }
    return this.start(userId, byAccount(chosen), (part) => ({
      kind: 'ip-search-remove',
      data: { items: part.entries, actor },
    }));
  }

  private async start<T>(
    userId: number,
    parts: AccountPart<T>[],
    jobOf: (part: AccountPart<T>) => AccountJob,
  ): Promise<IpSearchActionAnswer & { ended: boolean }> {
    const queued = [];
    for (const part of parts) {
      const job = await this.jobs.queue.enqueue({
        ...jobOf(part),
        userId,
        accountId: part.accountRef,
        target: part.lists.map((list) => list.listName).join(', '),
        // Started by a person who watches it: a failure is shown, not tried again behind their back.
        attempts: 1,
      });
      queued.push({ part, job });
    }
    // Each wait starts from the row just written (not read again), as startAndWait's does.
    const now = await Promise.all(
      queued.map(({ job }) => this.jobs.queue.waitFor(job.id, this.jobs.waitMs, job)),
    );
    const answer = queued.map(({ part }, index) => {
      const job = now[index];
      if (!job) throw new AppError('NOT_FOUND', 'Job not found.');
      return {
        account_name: part.accountName,
        account_id: part.accountId,
        lists: part.lists.map((list) => ({ list_id: list.listId, list_name: list.listName })),
        job: toJobDto(job),
      };
    });
    const ended = answer.every(({ job }) => !['queued', 'running'].includes(job.state));
    return { parts: answer, ended };
  }
}
