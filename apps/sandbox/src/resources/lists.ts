import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CloudflareError, fail, ok, timestamp } from '../envelope';
import { newId, newIds } from '../ids';
import { isIpv4, parseListIp } from '@guardian/contract';
import { PLAN_LIMITS } from '../plans';
import type { SandboxContext } from '../context';
import {
  compareSortKeys,
  ListItemStore,
  type BanList,
  type ListItem,
  type ListKind,
  type SandboxState,
} from '../state';
import { authenticate, requireAccount } from './tokens';
import { queryValue } from './paging';
import { listReferences } from './rulesets';
import type { ListChange } from '../bulk-operation-runner';
import { isRecord } from '../is-record';

const KINDS: readonly ListKind[] = ['ip', 'redirect', 'hostname', 'asn'];
const DEFAULT_ITEMS_PER_PAGE = 25;

// Cloudflare does not document the Lists API's error codes; these are the sandbox's (see README).
const invalid = (message: string): CloudflareError => fail(400, 10001, message);
const listNotFound = (): CloudflareError => fail(404, 10003, 'List not found');

/** A list item as the client sent it, validated for the list's kind; or why it is refused. */
export type ItemInput = Record<string, unknown>;
type ParsedItem = Omit<ListItem, 'id' | 'createdOn' | 'modifiedOn'>;

const HOSTNAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Every parsed item has the same object shape (absent fields are undefined), which keeps V8 fast. */
function parsed(
  key: string,
  sortKey: number | string,
  comment: string | undefined,
  value: Pick<ParsedItem, 'ip' | 'hostname' | 'redirect' | 'asn'>,
): ParsedItem {
  return {
    key,
    sortKey,
    ip: value.ip,
    hostname: value.hostname,
    redirect: value.redirect,
    asn: value.asn,
    comment,
  };
}

export function parseItem(kind: ListKind, input: unknown): ParsedItem | string {
  if (!isRecord(input)) return 'each item must be a JSON object';
  const comment = input.comment;
  if (comment !== undefined && typeof comment !== 'string') return 'comment must be a string';
  switch (kind) {
    case 'ip': {
      if (typeof input.ip !== 'string') return 'items of an ip list need an "ip"';
      const ip = parseListIp(input.ip);
      if (typeof ip === 'string') return ip;
      return parsed(ip.canonical, ip.sortKey, comment, { ip: ip.canonical });
    }
    case 'hostname': {
      const hostname = input.hostname;
      if (!isRecord(hostname) || typeof hostname.url_hostname !== 'string') {
        return 'items of a hostname list need a "hostname": {"url_hostname"}';
      }
      const host = hostname.url_hostname.toLowerCase();
      // 1.2.3.4 fits the pattern of four labels, but it is an address: ip lists hold those.
      if (!HOSTNAME.test(host) || host.length > 253 || isIpv4(host))
        return `"${hostname.url_hostname}" is not a valid hostname`;
      const exclude = hostname.exclude_exact_hostname;
      if (exclude !== undefined && typeof exclude !== 'boolean')
        return 'exclude_exact_hostname must be a boolean';
      const value: { url_hostname: string; exclude_exact_hostname?: boolean } = { url_hostname: host };
      if (exclude !== undefined) value.exclude_exact_hostname = exclude;
      return parsed(host, host, comment, { hostname: value });
    }
    case 'asn': {
      const asn = input.asn;
      if (typeof asn !== 'number' || !Number.isInteger(asn) || asn < 0 || asn > 4_294_967_295) {
        return 'items of an asn list need an "asn": a non-negative 32 bit integer';
      }
      return parsed(String(asn), asn, comment, { asn });
    }
    case 'redirect': {
      const redirect = input.redirect;
      if (!isRecord(redirect)) return 'items of a redirect list need a "redirect"';
      const { source_url: source, target_url: target } = redirect;
      if (typeof source !== 'string' || source === '' || /\s/.test(source))
        return 'redirect.source_url is invalid';
      if (typeof target !== 'string' || !/^https?:\/\/\S+$/.test(target))
        return 'redirect.target_url is invalid';
      const statusCode = redirect.status_code ?? 301;
      if (![301, 302, 307, 308].includes(statusCode as number))
        return 'redirect.status_code must be 301, 302, 307 or 308';
      const flags = [
        'include_subdomains',
        'subpath_matching',
        'preserve_query_string',
        'preserve_path_suffix',
      ];
      const value: Record<string, unknown> = {
        source_url: source,
        target_url: target,
        status_code: statusCode,
      };
      for (const flag of flags) {
        const flagValue = redirect[flag] ?? false;
        if (typeof flagValue !== 'boolean') return `redirect.${flag} must be a boolean`;
        value[flag] = flagValue;
      }
      const key = source.toLowerCase();
      return parsed(key, key, comment, { redirect: value });
    }
  }
}

export function listItemView(item: ListItem) {
  const view: Record<string, unknown> = { id: item.id };
  if (item.ip !== undefined) view.ip = item.ip;
  if (item.hostname !== undefined) view.hostname = item.hostname;
  if (item.redirect !== undefined) view.redirect = item.redirect;
  if (item.asn !== undefined) view.asn = item.asn;
  if (item.comment !== undefined) view.comment = item.comment;
  view.created_on = item.createdOn;
  view.modified_on = item.modifiedOn;
  return view;
}

export function listView(state: SandboxState, list: BanList, references?: Map<string, number>) {
  return {
    id: list.id,
    name: list.name,
    description: list.description,
    kind: list.kind,
    num_items: list.items.size,
    num_referencing_filters: (references ?? listReferences(state, list.accountId)).get(list.name) ?? 0,
    created_on: list.createdOn,
    modified_on: list.modifiedOn,
  };
}

/** Lists timestamps are RFC 3339 without fractions, e.g. 2020-01-01T08:00:00Z. */
const listTimestamp = (): string => timestamp().replace(/\.\d+Z$/, 'Z');

export function createList(
  state: SandboxState,
  accountId: string,
  input: { name: string; kind: ListKind; description?: string },
): BanList {
  const now = listTimestamp();
  const list: BanList = {
    id: newId(),
    accountId,
    name: input.name,
    description: input.description ?? '',
    kind: input.kind,
    createdOn: now,
    modifiedOn: now,
    items: new ListItemStore(),
  };
  state.lists.set(list.id, list);
  return list;
}

function accountItemCount(state: SandboxState, accountId: string): number {
  let count = 0;
  for (const list of state.lists.values()) if (list.accountId === accountId) count += list.items.size;
  return count;
}

export function makeItem(item: ParsedItem, id: string, createdOn: string, modifiedOn: string): ListItem {
  return {
    id,
    key: item.key,
    sortKey: item.sortKey,
    ip: item.ip,
    hostname: item.hostname,
    redirect: item.redirect,
    asn: item.asn,
    comment: item.comment,
    createdOn,
    modifiedOn,
  };
}

/**
 * Appends or updates items (same key: the item keeps its id, its comment is replaced). Used by POST,
 * by PUT after clearing, and by the control API's direct seeding. Ids come in one batch for speed.
 */
export function upsertItems(list: BanList, items: ParsedItem[], now: string): void {
  const ids = newIds(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as ParsedItem;
    const existing = list.items.getByKey(item.key);
    if (existing) {
      existing.comment = item.comment;
      if (item.hostname) existing.hostname = item.hostname;
      if (item.redirect) existing.redirect = item.redirect;
      existing.modifiedOn = now;
    } else {
      list.items.add(makeItem(item, ids[i] as string, now, now));
    }
  }
  list.modifiedOn = now;
}

/** Validates every item first: one bad item fails the whole operation, as on Cloudflare. */
function parseAll(kind: ListKind, inputs: unknown[]): ParsedItem[] | string {
  const parsed: ParsedItem[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const item = parseItem(kind, inputs[i]);
    if (typeof item === 'string') return `item ${i}: ${item}`;
    parsed.push(item);
  }
  return parsed;
}

function writeItems(state: SandboxState, inputs: unknown[], replace: boolean): ListChange {
  return (list) => {
    const parsed = parseAll(list.kind, inputs);
    if (typeof parsed === 'string') return parsed;
    const account = state.accounts.get(list.accountId);
    const limit = PLAN_LIMITS[account?.plan ?? 'free'].listItems;
    const keys = new Set(parsed.map((item) => item.key));
    const added = replace ? keys.size : [...keys].filter((key) => !list.items.getByKey(key)).length;
    const others = accountItemCount(state, list.accountId) - list.items.size;
    const after = others + (replace ? 0 : list.items.size) + added;
    if (after > limit) return 'This list is at the maximum number of items';
    if (replace) list.items.clear();
    upsertItems(list, parsed, listTimestamp());
    return undefined;
  };
}

function deleteItems(ids: string[]): ListChange {
  return (list) => {
    for (const id of ids) list.items.removeById(id);
    list.modifiedOn = listTimestamp();
    return undefined;
  };
}

/** Cursors name the boundary item's position in Cloudflare's order, so pages stay right across writes. */
function encodeCursor(direction: 'a' | 'b', sortKey: number | string): string {
  return Buffer.from(JSON.stringify([direction, sortKey])).toString('base64url');
}

function decodeCursor(cursor: string): { direction: 'a' | 'b'; sortKey: number | string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      (value[0] === 'a' || value[0] === 'b') &&
      (typeof value[1] === 'number' || typeof value[1] === 'string')
    ) {
      return { direction: value[0], sortKey: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw invalid('Invalid cursor');
}

/** Index of the first item whose sort key is greater than (or, with `inclusive`, equal to) `key`. */
function lowerBound(items: readonly ListItem[], key: number | string, inclusive: boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const comparison = compareSortKeys((items[mid] as ListItem).sortKey, key);
    if (comparison < 0 || (!inclusive && comparison === 0)) low = mid + 1;
    else high = mid;
  }
  return low;
}

function searchMatcher(kind: ListKind, search: string | undefined): ((item: ListItem) => boolean) | null {
  if (search === undefined || search === '') return null;
  const needle = search.toLowerCase();
  switch (kind) {
    case 'ip':
      return (item) => (item.ip ?? '').startsWith(needle);
    case 'hostname':
      return (item) => (item.hostname?.url_hostname ?? '').includes(needle);
    case 'asn':
      return (item) => String(item.asn) === search;
    case 'redirect':
      return (item) =>
        [item.redirect?.source_url, item.redirect?.target_url].some(
          (url) => typeof url === 'string' && url.toLowerCase().includes(needle),
        );
  }
}

/** Whether any item from `index` on (walking by `step`) matches; O(1) without a search. */
function findMatch(
  items: readonly ListItem[],
  index: number,
  step: 1 | -1,
  matches: (item: ListItem) => boolean,
) {
  for (let i = index; i >= 0 && i < items.length; i += step) if (matches(items[i] as ListItem)) return true;
  return false;
}

/** One page of items in O(page) (plus a binary search); with `search`, a scan from the cursor. */
export function pageItems(
  list: BanList,
  perPage: number,
  cursor: string | undefined,
  search: string | undefined,
) {
  const items = list.items.ordered();
  const matches = searchMatcher(list.kind, search) ?? (() => true);
  const position = cursor ? decodeCursor(cursor) : null;
  const page: ListItem[] = [];
  let hasBefore: boolean;
  let hasAfter: boolean;

  if (position?.direction === 'b') {
    const end = lowerBound(items, position.sortKey, true);
    let index = end - 1;
    for (; index >= 0 && page.length < perPage; index--) {
      const item = items[index] as ListItem;
      if (matches(item)) page.push(item);
    }
    page.reverse();
    hasBefore = findMatch(items, index, -1, matches);
    hasAfter = findMatch(items, end, 1, matches);
  } else {
    const start = position ? lowerBound(items, position.sortKey, false) : 0;
    let index = start;
    for (; index < items.length && page.length < perPage; index++) {
      const item = items[index] as ListItem;
      if (matches(item)) page.push(item);
    }
    hasAfter = findMatch(items, index, 1, matches);
    hasBefore = findMatch(items, start - 1, -1, matches);
  }

  const cursors: { before?: string; after?: string } = {};
  const first = page[0];
  const last = page[page.length - 1];
  if (hasBefore && first) cursors.before = encodeCursor('b', first.sortKey);
  if (hasAfter && last) cursors.after = encodeCursor('a', last.sortKey);
  return { page, cursors };
}

export function registerListRoutes(app: FastifyInstance, context: SandboxContext): void {
  const { state, operations } = context;

  type ListParams = { account_id: string; list_id: string };

  const listOf = (request: FastifyRequest<{ Params: ListParams }>): BanList => {
    const token = authenticate(state, request);
    const account = requireAccount(state, token, request.params.account_id, request);
    const list = state.lists.get(request.params.list_id);
    if (!list || list.accountId !== account.id) throw listNotFound();
    return list;
  };

  // Cloudflare allows one pending bulk operation per account and answers 429 to a write sent meanwhile
  // (Lists API docs, "Rate limiting"); it documents no error code, so 10024 is the sandbox's.
  const start = (list: BanList, change: ListChange) => {
    const operation = operations.start(list, change);
    if (!operation) {
      throw fail(
        429,
        10024,
        'There is already an outstanding bulk operation for this account; retry when it completes',
      );
    }
    return ok({ operation_id: operation.id });
  };

  app.get<{ Params: { account_id: string } }>('/accounts/:account_id/rules/lists', async (request) => {
    const token = authenticate(state, request);
    const account = requireAccount(state, token, request.params.account_id, request);
    const references = listReferences(state, account.id);
    return ok(state.listsOf(account.id).map((list) => listView(state, list, references)));
  });

  app.post<{ Params: { account_id: string }; Body: unknown }>(
    '/accounts/:account_id/rules/lists',
    async (request) => {
      const token = authenticate(state, request);
      const account = requireAccount(state, token, request.params.account_id, request);
      const body = request.body;
      if (!isRecord(body)) throw invalid('Request body must be a JSON object');
      const { name, kind, description } = body;
      if (typeof name !== 'string' || !/^[a-z0-9_]+$/.test(name) || name.length > 50) {
        throw invalid(
          'The list name must use only lowercase letters, numbers and underscores, at most 50 characters',
        );
      }
      if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) {
        throw invalid('The list kind must be one of ip, redirect, hostname, asn');
      }
      if (description !== undefined && (typeof description !== 'string' || description.length > 500)) {
        throw invalid('The list description must be a string of at most 500 characters');
      }
      const limits = PLAN_LIMITS[account.plan];
      if ((kind === 'hostname' || kind === 'asn') && !limits.allListKinds) {
        throw fail(400, 10022, `Lists of kind ${kind} are only available on Enterprise plans`);
      }
      const lists = state.listsOf(account.id);
      if (lists.some((list) => list.name === name))
        throw fail(400, 10012, `A list named ${name} already exists`);
      if (lists.length >= limits.lists) {
        throw fail(
          400,
          10021,
          `You have reached the maximum number of lists (${limits.lists}) for your plan`,
        );
      }
      const list = createList(state, account.id, { name, kind: kind as ListKind, description });
      state.changed();
      return ok(listView(state, list));
    },
  );

  app.get<{ Params: ListParams }>('/accounts/:account_id/rules/lists/:list_id', async (request) =>
    ok(listView(state, listOf(request))),
  );

  app.put<{ Params: ListParams; Body: unknown }>(
    '/accounts/:account_id/rules/lists/:list_id',
    async (request) => {
      const list = listOf(request);
      const body = request.body;
      if (!isRecord(body)) throw invalid('Request body must be a JSON object');
      const description = body.description ?? '';
      if (typeof description !== 'string' || description.length > 500) {
        throw invalid('The list description must be a string of at most 500 characters');
      }
      list.description = description;
      list.modifiedOn = listTimestamp();
      state.changed();
      return ok(listView(state, list));
    },
  );

  app.delete<{ Params: ListParams }>('/accounts/:account_id/rules/lists/:list_id', async (request) => {
    const list = listOf(request);
    const references = listReferences(state, list.accountId).get(list.name) ?? 0;
    if (references > 0) {
      throw fail(
        400,
        10023,
        `The list ${list.name} is referenced by ${references} rule(s) and cannot be deleted`,
      );
    }
    state.lists.delete(list.id);
    state.changed();
    return ok({ id: list.id });
  });

  app.get<{ Params: ListParams; Querystring: Record<string, unknown> }>(
    '/accounts/:account_id/rules/lists/:list_id/items',
    async (request) => {
      const list = listOf(request);
      const perPageText = queryValue(request.query.per_page);
      const perPage = perPageText === undefined ? DEFAULT_ITEMS_PER_PAGE : Number(perPageText);
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > 500) {
        throw invalid('per_page must be an integer between 1 and 500');
      }
      const { page, cursors } = pageItems(
        list,
        perPage,
        queryValue(request.query.cursor),
        queryValue(request.query.search),
      );
      return ok(page.map(listItemView), { cursors });
    },
  );

  app.get<{ Params: ListParams & { item_id: string } }>(
    '/accounts/:account_id/rules/lists/:list_id/items/:item_id',
    async (request) => {
      const item = listOf(request).items.getById(request.params.item_id);
      if (!item) throw fail(404, 10003, 'List item not found');
      return ok(listItemView(item));
    },
  );

  const itemsBody = (body: unknown): unknown[] => {
    if (!Array.isArray(body)) throw invalid('Request body must be a JSON array of list items');
    return body;
  };

  app.post<{ Params: ListParams; Body: unknown }>(
    '/accounts/:account_id/rules/lists/:list_id/items',
    async (request) => {
      const list = listOf(request);
      return start(list, writeItems(state, itemsBody(request.body), false));
    },
  );

  app.put<{ Params: ListParams; Body: unknown }>(
    '/accounts/:account_id/rules/lists/:list_id/items',
    async (request) => {
      const list = listOf(request);
      return start(list, writeItems(state, itemsBody(request.body), true));
    },
  );

  app.delete<{ Params: ListParams; Body: unknown }>(
    '/accounts/:account_id/rules/lists/:list_id/items',
    async (request) => {
      const list = listOf(request);
      const body = request.body;
      const items = isRecord(body) ? body.items : undefined;
      if (!Array.isArray(items) || items.length === 0) {
        throw invalid('Request body must be {"items": [{"id": ...}]} with at least one item');
      }
      const ids = items.map((item) => (isRecord(item) ? item.id : undefined));
      if (!ids.every((id): id is string => typeof id === 'string')) throw invalid('Every item needs an "id"');
      return start(list, deleteItems(ids));
    },
  );
}
