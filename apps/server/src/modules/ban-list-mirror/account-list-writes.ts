import { AppError } from '../../app-error';
import type { Leases } from '../../db/leases';
import type { ListWriteBudget } from '../../cloudflare/list-write-budget';

interface ListAccount {
  accountId: string;
  accountName: string;
}

/**
 * Lists writes at Cloudflare, per Cloudflare account: one pending bulk operation at a time, and the
 * account's Lists write budget (README "Cloudflare's limits").
 */
export class AccountListWrites {
  constructor(
    private readonly leases: Leases,
    /** The longest a person waits for the account's turn (the interactive Cloudflare deadline). */
    private readonly accountWaitMs: number,
    /** Cloudflare's Lists write budget per account, counted in the database (none: not counted). */
    private readonly writeBudget?: ListWriteBudget,
  ) {}

  /**
   * Runs a list item write at Cloudflare and the wait for its bulk operation. Cloudflare allows one
   * pending bulk operation per account and answers 429 to a write sent meanwhile, to any list of the
   * account: so these writes take turns per Cloudflare account, in every server process on this
   * database. After `accountWaitMs` without a turn the person gets a 409 and nothing is sent.
   * Once it is the write's turn, its `changes` (item changes: added, replaced or deleted items) are
   * taken from the account's Lists write budget; past it the write is refused (429) and not sent.
   * Callers hold the list's own turn (ListTurns) first, never the other way round.
   */
  atCloudflare<T>(list: ListAccount, changes: number, work: () => Promise<T>): Promise<T> {
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
  async listWrite(account: ListAccount): Promise<void> {
    await this.writeBudget?.take(account.accountId, account.accountName, 0);
  }
}
