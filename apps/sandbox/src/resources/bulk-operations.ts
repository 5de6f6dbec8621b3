import type { FastifyInstance } from 'fastify';
import { fail, ok, timestamp } from '../envelope';
import { newId } from '../ids';
import type { SandboxContext } from '../context';
import type { BanList, BulkOperation, SandboxState } from '../state';
import { authenticate, requireAccount } from './tokens';

/** The change an operation makes when it runs; returns an error message to fail the whole operation. */
export type ListChange = (list: BanList) => string | undefined;

interface Queued {
  operation: BulkOperation;
  change: ListChange;
}

/**
 * Runs list item writes in order, one list at a time: pending, then running, then completed or failed.
 * Each step waits `operationDelayMs` (0 by default: the next turn of the event loop), so a client that
 * polls right after the write sees the operation finish almost at once.
 */
export class BulkOperationRunner {
  private readonly queues = new Map<string, Queued[]>();
  private readonly busy = new Set<string>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly state: SandboxState,
    private readonly delayMs: () => number,
    private readonly schedule: (callback: () => void, delayMs: number) => void,
  ) {}

  /** Whether the account has an operation that has not finished (for the 'reject' concurrency mode). */
  hasOutstanding(accountId: string): boolean {
    for (const queue of this.queues.values()) {
      if (queue.some((queued) => queued.operation.accountId === accountId)) return true;
    }
    return false;
  }

  enqueue(list: BanList, change: ListChange): BulkOperation {
    const operation: BulkOperation = {
      id: newId(),
      accountId: list.accountId,
      listId: list.id,
      status: 'pending',
    };
    this.state.bulkOperations.set(operation.id, operation);
    const queue = this.queues.get(list.id) ?? [];
    queue.push({ operation, change });
    this.queues.set(list.id, queue);
    if (!this.busy.has(list.id)) this.runNext(list.id);
    return operation;
  }

  /** Resolves once every queued operation has completed or failed. */
  settle(): Promise<void> {
    if (this.queues.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private runNext(listId: string): void {
    const queue = this.queues.get(listId);
    const next = queue?.[0];
    if (!queue || !next) {
      this.queues.delete(listId);
      this.busy.delete(listId);
      if (this.queues.size === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
      return;
    }
    this.busy.add(listId);
    const { operation, change } = next;
    this.schedule(() => {
      operation.status = 'running';
      this.schedule(() => {
        const list = this.state.lists.get(listId);
        const error = list ? change(list) : 'The list was deleted before the operation ran';
        operation.status = error === undefined ? 'completed' : 'failed';
        if (error !== undefined) operation.error = error;
        operation.completed = timestamp().replace(/\.\d+Z$/, 'Z');
        if (error === undefined) this.state.changed();
        queue.shift();
        this.runNext(listId);
      }, this.delayMs());
    }, this.delayMs());
  }
}

export function bulkOperationView(operation: BulkOperation) {
  if (operation.status === 'pending' || operation.status === 'running') {
    return { id: operation.id, status: operation.status };
  }
  if (operation.status === 'failed') {
    return {
      id: operation.id,
      status: operation.status,
      error: operation.error ?? '',
      completed: operation.completed ?? '',
    };
  }
  return { id: operation.id, status: operation.status, completed: operation.completed ?? '' };
}

export function registerBulkOperationRoutes(app: FastifyInstance, { state }: SandboxContext): void {
  app.get<{ Params: { account_id: string; operation_id: string } }>(
    '/accounts/:account_id/rules/lists/bulk_operations/:operation_id',
    async (request) => {
      const token = authenticate(state, request);
      const account = requireAccount(state, token, request.params.account_id, request);
      const operation = state.bulkOperations.get(request.params.operation_id);
      if (!operation || operation.accountId !== account.id)
        throw fail(404, 10003, 'Bulk operation not found');
      return ok(bulkOperationView(operation));
    },
  );
}
