import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredImportItem } from '../ban-list-import';
import type { ListImportService } from '../ban-list-import';
import type { BanListItemsService } from '../ban-list-items';
import type { BanListsRepository } from '../ban-list-mirror';
import { AppError } from '../../app-error';
import type { Db } from '../../db';
import type { GuardianJobHandler, GuardianJobKinds } from '../../jobs/job-kinds';
import type { JobQueue } from '../../jobs/job-queue';
import { PeriodicSweep } from '../../periodic-sweep';
import { ServersRepository, type PendingRow } from './servers.repository';

export const SERVER_BANS = 'server-bans' satisfies keyof GuardianJobKinds;
/** Pending bans and unbans one pass of a job takes (a pass writes each list once). */
export const SERVER_BANS_BATCH = 10_000;
/** How often each process looks for pending bans no job is carrying (a job that failed, a lost enqueue). */
export const SERVER_BANS_SWEEP_MS = 30_000;
/**
 * A pass waits until the account's oldest pending row is this old, so a stream of bans goes in one
 * write per list every couple of seconds rather than a write each time one arrives (1,000 bans a
 * minute from 50 servers: ~30 writes a minute a list, not 1,000), well within the 10 s a ban may take.
 */
export const SERVER_BANS_GATHER_MS = 2_000;
/** After an account's job failed (Cloudflare refusing), the sweep queues its next one this much later. */
const FAILED_PAUSE_MS = 60_000;

/**
 * The servers' bans and unbans reach Cloudflare through one job per Cloudflare account (`server-bans`, which
 * takes the account's turn): a ban call only stores its rows and makes sure a job of the account is
 * queued; while one is queued, later calls add to what it will take. A run takes every pending row of
 * the account, all servers together, and writes each list once: its bans as one add (the import's
 * write, `ListImportService.addItems`: the account's write turn and Lists budget, the mirror, a lost
 * answer found out) and its unbans through the items' delete. So a burst of bans from many servers
 * costs a write per list per run, not a write per ban; their unbans one delete per list per run. A row is done only once Cloudflare took it;
 * when Cloudflare refuses for a while (5xx, 429, a revoked token) the rows stay pending, the job is
 * tried again (the queue's background retries), and after that the sweep queues a new one.
 */
export class ServerBanWrites {
  private readonly repository: ServersRepository;
  private readonly periodic: PeriodicSweep;

  constructor(
    private readonly db: Db,
    private readonly lists: BanListsRepository,
    private readonly listImport: ListImportService,
    private readonly items: BanListItemsService,
    private readonly queue: JobQueue<GuardianJobKinds>,
    onError: (err: unknown) => void,
    sweepMs = SERVER_BANS_SWEEP_MS,
  ) {
    this.repository = new ServersRepository(db);
    this.periodic = new PeriodicSweep(() => this.sweep(), sweepMs, onError);
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** Makes sure a job of the account will take its pending rows: none is queued when one is already waiting. */
  readonly trigger = async (accountRef: number): Promise<void> => {
    if (await this.repository.jobQueued(SERVER_BANS, accountRef)) return;
    const [account] = await this.db.query<{ user_id: number; account_name: string }>(
      'SELECT user_id, account_name FROM cloudflare_accounts WHERE id = $1',
      [accountRef],
    );
    if (!account) return;
    await this.queue.enqueue({
      kind: SERVER_BANS,
      userId: account.user_id,
      accountId: accountRef,
      target: account.account_name,
      data: {},
    });
  };

  /** Queues a job for every account with pending rows and none carrying them; answers how many. */
  async sweep(): Promise<number> {
    await this.repository.forgetOld();
    const waiting = await this.repository.accountsWaiting(SERVER_BANS, FAILED_PAUSE_MS);
    for (const account of waiting) await this.trigger(account.account_ref);
    return waiting.length;
  }

  readonly run: GuardianJobHandler<'server-bans'> = async ({ job, signal, progress }) => {
    if (job.accountId === null) return { written: 0, failed: 0 };
    let written = 0;
    let failed = 0;
    // Rows that came while a pass wrote are taken by the next pass of the same run.
    for (;;) {
      signal.throwIfAborted();
      const age = await this.repository.oldestPendingAge(job.accountId);
      if (age !== null && age < SERVER_BANS_GATHER_MS)
        await sleep(Math.ceil(SERVER_BANS_GATHER_MS - age), undefined, { signal });
      const rows = await this.repository.pendingOf(job.accountId, SERVER_BANS_BATCH);
      if (rows.length === 0) break;
      const outcome = await this.pass(job.userId, rows, signal);
      written += outcome.written;
      failed += outcome.failed;
      progress(written + failed);
    }
    return { written, failed };
  };

  /** One write of each list's bans and its unbans; the rows of a list Cloudflare refused for good fail. */
  private async pass(userId: number, rows: PendingRow[], signal: AbortSignal) {
    let written = 0;
    let failed = 0;
    const byList = new Map<number, PendingRow[]>();
    for (const row of rows) {
      const listRows = byList.get(row.ban_list_ref);
      if (listRows) listRows.push(row);
      else byList.set(row.ban_list_ref, [row]);
    }
    for (const [listRef, listRows] of byList) {
      signal.throwIfAborted();
      // The last word on a value wins: a ban then an unban of it in one pass is an unban, and so on.
      const latest = new Map<string, PendingRow>();
      for (const row of listRows) latest.set(row.value, row);
      const winners = new Set(latest.values());
      const superseded = listRows.filter((row) => !winners.has(row));
      await this.repository.finish(
        superseded.map((row) => row.id),
        'done',
      );
      const list = await this.lists.findOwned(userId, listRef);
      const bans = [...winners].filter((row) => row.action === 'ban');
      const unbans = [...winners].filter((row) => row.action === 'unban');
      if (!list) {
        await this.repository.finish(
          listRows.map((row) => row.id),
          'failed',
          'The list is no longer in Guardian.',
        );
        failed += winners.size;
        continue;
      }
      const actor = await this.actorOf(userId);
      if (bans.length > 0) {
        const items = bans.map((row): StoredImportItem => [
          row.value,
          row.comment,
          row.expires_at?.toISOString() ?? null,
        ]);
        try {
          await this.listImport.addItems({ ...actor, via: 'api' }, list, items, signal);
          await this.repository.finish(
            bans.map((row) => row.id),
            'done',
          );
          written += bans.length;
        } catch (err) {
          // Refused for good (no room in the account, a value Cloudflare will not take): failed, with why.
          if (!(err instanceof AppError && err.code === 'BAD_REQUEST')) throw err;
          await this.repository.finish(
            bans.map((row) => row.id),
            'failed',
            err.message,
          );
          failed += bans.length;
        }
      }
      if (unbans.length > 0) {
        signal.throwIfAborted();
        // Each address's own items (not the others that hold its text), all in one delete of the list;
        // one already gone (a sync, a person) is simply not in it: what was asked for is done.
        const items = await this.repository.itemsWithValues(
          listRef,
          unbans.map((row) => row.value),
        );
        await this.items.deleteMany(
          { ...actor, via: 'api' },
          list.listId,
          items.map((item) => item.id),
        );
        await this.repository.finish(
          unbans.map((row) => row.id),
          'done',
        );
        written += unbans.length;
      }
    }
    return { written, failed };
  }

  /** How the items' Added by and history name a server's change: the person, through their servers. */
  private async actorOf(userId: number): Promise<{ userId: number; name: string }> {
    const [row] = await this.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]);
    return { userId, name: `${row?.email ?? `user ${userId}`} (servers)` };
  }
}
