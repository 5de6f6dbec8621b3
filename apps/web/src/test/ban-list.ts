import type { BanList } from '@guardian/contract';

/**
 * A ban list as GET /api/cloudflare/banlists answers it: an ip list of Guardian Demo's with id * 10 items
 * and no purpose, unless `overrides` say otherwise.
 */
export const banListOf = (id: number, listName: string, overrides: Partial<BanList> = {}): BanList => ({
  id,
  account_name: 'Guardian Demo',
  account_id: 'acc-guardian',
  list_name: listName,
  list_id: `list-${listName}`,
  kind: 'ip',
  items: id * 10,
  purpose: null,
  purpose_source: null,
  ...overrides,
});
