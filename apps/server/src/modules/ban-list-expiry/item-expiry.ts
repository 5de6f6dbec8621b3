import { PeriodicSweep } from '../../periodic-sweep';
import { ERROR_STATUS } from '@guardian/contract';
import { cloudflareErrorToAppError } from '../../cloudflare';
import { AppError } from '../../app-error';
import { AuditRepository } from '../audit';
import type { JobContext, JobQueue } from '../../jobs/job-queue';
import type { GuardianJobHandler, GuardianJobKinds } from '../../jobs/job-kinds';
import { banListNotFound } from '../ban-list-mirror';
import { BanListItemsRepository } from '../ban-list-mirror';
import { BanListsRepository, type BanListRecord } from '../ban-list-mirror';
import { GUARDIAN_ACTOR, ItemHistoryRepository } from '../ban-list-mirror';
import { deleteAtCloudflare } from '../ban-list-items';
import { ListWriter, type ListWriterParts } from '../ban-list-mirror';

export const ITEM_EXPIRY = 'ban-list-expiry' satisfies keyof GuardianJobKinds;

/**
 * Ids in one DELETE at Cloudflare: n due items of a list go in ceil(n / EXPIRY_BATCH) calls, one
 * change per item of the Lists write budget. Cloudflare documents no per-request maximum (the sandbox
 * test of a 100,000-item POST); this is the most an import sends in one write (BAN_LIST_IMPORT_LINES_MAX),
 * so 50,000 items due at once go in one call.
 */
export const EXPIRY_BATCH = 100_000;
/** How often each server process looks for due items (ITEM_EXPIRY_SWEEP_MS); an item goes within this after its expiry. */
export const EXPIRY_SWEEP_DEFAULT_MS = 60_000;
/** After an account's expiry job failed (a revoked token...), its next one waits this long. */
const FAILED_PAUSE_MS = 10 * 60_000;
/** How many values the audit event of a batch names (its count says how many in all). */
const AUDITED_VALUES = 20;

interface DueAccount {
  account_ref: number;
  user_id: number;
  account_name: string;
}

/**
 * Cloudflare has no expiry: Guardian removes expired items itself (issue 15). Every process looks for
 * accounts with due items every `sweepMs` and queues one job per account (none while one is queued or
 * running); the job deletes the account's due items list by list, in batches of EXPIRY_BATCH ids per
 * DELETE, each in the account's write turn and Lists write budget (AccountListWrites.atCloudflare), then
 * from the mirror, with the items' history and the audit trail naming Guardian as the actor. An
 * imported item's Cloudflare id is learned first (item-ids.ts: one walk of the list for many).
 *
 * A batch is deleted from the mirror only after Cloudflare completed its operation: a fault leaves that
 * batch in both (consistent), and the next sweep tries it again (deleting an id Cloudflare no longer
 * has is harmless, so an operation that completed after its wait timed out is also caught up).
 */
export class ItemExpiry extends ListWriter {
  private readonly periodic: PeriodicSweep;

  constructor(
    parts: ListWriterParts,
    private readonly queue: JobQueue<GuardianJobKinds>,
    sweepMs: number,
    private readonly onError: (err: unknown) => void,
    /** Ids per DELETE (tests make it small). */
    private readonly batchSize = EXPIRY_BATCH,
  ) {
    super(parts);
    this.periodic = new PeriodicSweep(() => this.sweep(), sweepMs, onError);
  }

  /** The job of one account: its due items removed, `done` of `total` counted as they go. */
  readonly run: GuardianJobHandler<'ban-list-expiry'> = async (context) => {
    const { job } = context;
    if (job.accountId === null) return { removed: 0 };
    // Two processes' sweeps may queue a job each for one account at once: the later one leaves the
    // work to the earlier (it would only wait for the account's write turn, and fail).
    const [earlier] = await this.db.query(
      `SELECT 1 FROM jobs WHERE kind = $1 AND account_id = $2 AND state IN ('queued', 'running')
         AND (created_at, id) < ($3, $4::uuid)`,
      [ITEM_EXPIRY, job.accountId, job.createdAt, job.id],
    );
    if (earlier) return { removed: 0 };
    return { removed: await this.expireAccount(job.accountId, context) };
  };

  start(): void {
    this.periodic.start();
  }

  /** Looks for expired items every `sweepMs` from now on (System Setting's expiry sweep interval). */
  setSweepInterval(sweepMs: number): void {
    this.periodic.setInterval(sweepMs);
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /**
   * Queues a job for each account with due items and no expiry job queued or running; answers their
   * number. It first asks when the next item is due (migration 024: one probe of each list's index of
   * items with an expiry, planned once per session): until then a sweep is that one cheap statement,
   * instead of a look for due accounts planned over every list's partition each time.
   */
  async sweep(now = new Date()): Promise<number> {
    const [next] = await this.db.query<{ due: Date | null }>('SELECT item_expiry_next_due() AS due');
    if (!next?.due || next.due > now) return 0;
    const due = await this.db.query<DueAccount>(
      `SELECT a.id AS account_ref, a.user_id, a.account_name FROM cloudflare_accounts a
       WHERE EXISTS (
         SELECT 1 FROM ban_lists bl JOIN ban_list_items i ON i.ban_list_ref = bl.id
         WHERE bl.account_ref = a.id AND i.expires_at IS NOT NULL AND i.expires_at <= $1)
       AND NOT EXISTS (
         SELECT 1 FROM jobs j WHERE j.kind = $2 AND j.account_id = a.id
         AND (j.state IN ('queued', 'running') OR (j.state = 'failed' AND j.finished_at > $3)))`,
      [now, ITEM_EXPIRY, new Date(now.getTime() - FAILED_PAUSE_MS)],
    );
    for (const account of due) {
      await this.queue.enqueue({
        kind: ITEM_EXPIRY,
        userId: account.user_id,
        accountId: account.account_ref,
        target: account.account_name,
        data: {},
      });
    }
    return due.length;
  }

  /** Removes the account's due items (at Cloudflare, then here); answers how many. */
  async expireAccount(
    accountRef: number,
    context: Pick<JobContext, 'signal' | 'progress'> = {
      signal: new AbortController().signal,
      progress: () => {},
    },
    now = new Date(),
  ): Promise<number> {
    const [owner] = await this.db.query<{ user_id: number }>(
      'SELECT user_id FROM cloudflare_accounts WHERE id = $1',
      [accountRef],
    );
    if (!owner) return 0;
    const refs = await this.db.query<{ id: number; due: number }>(
      `SELECT bl.id, (SELECT count(*)::int FROM ban_list_items i
                      WHERE i.ban_list_ref = bl.id AND i.expires_at IS NOT NULL AND i.expires_at <= $2) AS due
       FROM ban_lists bl WHERE bl.account_ref = $1 ORDER BY bl.id`,
      [accountRef, now],
    );
    const total = refs.reduce((sum, row) => sum + row.due, 0);
    let removed = 0;
    context.progress(0, total);
    for (const { id: ref, due } of refs) {
      if (due === 0) continue;
      const list = await this.lists.findOwned(owner.user_id, ref);
      if (!list) continue;
      for (;;) {
        context.signal.throwIfAborted();
        const batch = await this.expireBatch(owner.user_id, list, now);
        removed += batch;
        context.progress(removed, total);
        if (batch < this.batchSize) break;
      }
    }
    return removed;
  }

  /** One DELETE of up to `batchSize` due items of the list, in the list's turn; answers how many. */
  private async expireBatch(userId: number, list: BanListRecord, now: Date): Promise<number> {
    const audit = new AuditRepository(this.db);
    return this.turns.writing(list.ref, async () => {
      const items = new BanListItemsRepository(this.db);
      const due = await items.due(list.ref, now, this.batchSize);
      if (due.length === 0) return 0;
      const auditEvent = (outcome: 'success' | 'failed', status: number, message: string | null) =>
        audit.append({
          userId,
          actor: GUARDIAN_ACTOR,
          address: '',
          action: 'banListItems.expire',
          request: 'expiry of ban list items',
          accountId: list.accountId,
          zoneId: null,
          target: {
            list_id: list.listId,
            list_name: list.listName,
            items: due.length,
            values: due.slice(0, AUDITED_VALUES).map((item) => item.ip),
          },
          outcome,
          status,
          message,
        });
      try {
        const cf = await this.owned.clientOf(userId, list);
        // Those Cloudflare no longer has (imported, removed there) are only removed here.
        await deleteAtCloudflare({ db: this.db, writes: this.writes }, cf, list, due);
      } catch (err) {
        const appError = err instanceof AppError ? err : cloudflareErrorToAppError(err);
        const status = appError ? ERROR_STATUS[appError.code] : 500;
        await auditEvent('failed', status, appError?.message ?? 'Something went wrong.').catch(
          () => undefined,
        );
        throw err;
      }
      await this.db.transaction(async (tx) => {
        const lists = new BanListsRepository(tx);
        if (!(await lists.lock(list.ref))) throw banListNotFound();
        const deleted = await new BanListItemsRepository(tx).deleteMany(
          list.ref,
          due.map((item) => item.id),
        );
        if (deleted.length > 0) await lists.recordDeletedMany(list.ref, deleted.length);
        await new ItemHistoryRepository(tx).record(
          list.ref,
          deleted.map((item) => ({
            itemId: item.itemId,
            value: item.ip,
            event: 'expired' as const,
            userId: null,
            actor: GUARDIAN_ACTOR,
          })),
        );
      });
      await auditEvent('success', 200, null);
      return due.length;
    });
  }
}
