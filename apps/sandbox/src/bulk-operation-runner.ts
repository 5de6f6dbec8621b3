import { timestamp } from './envelope';
import { newId } from './ids';
import type { BanList, BulkOperation, SandboxState } from './state';

/** The change an operation makes when it runs; returns an error message to fail the whole operation. */
export type ListChange = (list: BanList) => string | undefined;

/**
 * Runs list item writes as Cloudflare does: asynchronously (pending, then running, then completed or
 * failed), and at most one pending per account. Each step waits `operationDelayMs` (0 by default: the
 * next turn of the event loop), so a client that polls right after the write sees it finish almost at once.
 */
export class BulkOperationRunner {
  /** Each account's unfinished operation, by account id. */
  private readonly outstanding = new Map<string, BulkOperation>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly state: SandboxState,
    private readonly delayMs: () => number,
    private readonly schedule: (callback: () => void, delayMs: number) => void,
  ) {}

  /** Starts `change` on `list`; undefined (nothing started) while the list's account has one unfinished. */
  start(list: BanList, change: ListChange): BulkOperation | undefined {
    if (this.outstanding.has(list.accountId)) return undefined;
    const operation: BulkOperation = {
      id: newId(),
      accountId: list.accountId,
      listId: list.id,
      status: 'pending',
    };
    this.state.bulkOperations.set(operation.id, operation);
    this.outstanding.set(list.accountId, operation);
    this.schedule(() => {
      operation.status = 'running';
      this.schedule(() => this.finish(operation, change), this.delayMs());
    }, this.delayMs());
    return operation;
  }

  /** Resolves once every started operation has completed or failed. */
  settle(): Promise<void> {
    if (this.outstanding.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private finish(operation: BulkOperation, change: ListChange): void {
    const list = this.state.lists.get(operation.listId);
    const error = list ? change(list) : 'The list was deleted before the operation ran';
    operation.status = error === undefined ? 'completed' : 'failed';
    if (error !== undefined) operation.error = error;
    operation.completed = timestamp().replace(/\.\d+Z$/, 'Z');
    if (error === undefined) this.state.changed();
    this.outstanding.delete(operation.accountId);
    if (this.outstanding.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}
