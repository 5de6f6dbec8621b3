import type { FastifyInstance } from 'fastify';
import { ok } from '../envelope';
import type { SandboxContext } from '../context';
import type { Account } from '../state';
import { authenticate } from './tokens';
import { matchesTextFilter, pageOf, queryValue, readDirection, readPage } from './paging';

export function accountView(account: Account) {
  return {
    id: account.id,
    name: account.name,
    type: account.plan === 'enterprise' ? 'enterprise' : 'standard',
    settings: { enforce_twofactor: false },
    created_on: account.createdOn,
  };
}

export function registerAccountRoutes(app: FastifyInstance, { state }: SandboxContext): void {
  app.get<{ Querystring: Record<string, unknown> }>('/accounts', async (request) => {
    const token = authenticate(state, request);
    const query = request.query;
    const page = readPage(query, { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50, code: 1001 });
    const direction = readDirection(query, 'asc', 1001);
    const name = queryValue(query.name);
    const accounts = token.accountIds
      .map((id) => state.accounts.get(id))
      .filter((account): account is Account => account !== undefined)
      .filter((account) => name === undefined || matchesTextFilter(account.name, name))
      .sort((a, b) => a.name.localeCompare(b.name) * (direction === 'asc' ? 1 : -1));
    const { result, resultInfo } = pageOf(accounts, page);
    return ok(result.map(accountView), resultInfo);
  });
}
