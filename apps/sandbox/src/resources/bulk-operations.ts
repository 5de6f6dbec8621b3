import type { FastifyInstance } from 'fastify';
import { fail, ok } from '../envelope';
import type { SandboxContext } from '../context';
import type { BulkOperation } from '../state';
import { authenticate, requireAccount } from './tokens';

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
