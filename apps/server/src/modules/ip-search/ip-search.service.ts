import {
  IP_SEARCH_MATCHES_MAX,
  type BanListKind,
  type IpSearchAnswer,
  type IpSearchKind,
  type IpSearchMatch,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { Queryable } from '../../db';
import { parseIpSearch } from '../banlists/ip-address';
import { parseItemValue } from '../banlists/list-item-value';
import { IpSearchRepository, type FoundItem, type SearchedList } from './ip-search.repository';

/** What the search box's text was read as. */
export type ParsedSearch =
  { kind: 'address' | 'cidr'; value: string } | { kind: 'hostname' | 'asn'; value: string };

/** Text shaped like an IP address or CIDR (digits and dots, or anything with a colon): read only as one. */
const LOOKS_LIKE_IP = /^(?:[0-9.]+\.[0-9.]*|[0-9a-f.:]*:[0-9a-f.:]*)(?:\/.*)?$/i;
const LOOKS_LIKE_ASN = /^(?:as)?\s*[0-9]+$/i;

/**
 * Reads the search box as the Add dialog reads an item (list-item-value.ts, ip-address.ts): an IPv4 or
 * IPv6 address or CIDR (any prefix here), an AS number (`13335`, `AS13335`), or a hostname. A string
 * is the reason it is none of them.
 */
export function parseSearch(text: string): ParsedSearch | string {
  const trimmed = text.trim();
  if (LOOKS_LIKE_IP.test(trimmed)) {
    const ip = parseIpSearch(trimmed);
    if ('error' in ip) return ip.error;
    return { kind: ip.prefix === undefined ? 'address' : 'cidr', value: ip.value };
  }
  if (LOOKS_LIKE_ASN.test(trimmed)) {
    const asn = parseItemValue('asn', trimmed);
    return typeof asn === 'string' ? asn : { kind: 'asn', value: asn.value };
  }
  const hostname = parseItemValue('hostname', trimmed);
  if (typeof hostname === 'string') return `"${trimmed}" is not an IP address, CIDR, hostname or AS number.`;
  return { kind: 'hostname', value: hostname.value };
}

const LIST_KIND: Record<IpSearchKind, BanListKind> = {
  address: 'ip',
  cidr: 'ip',
  hostname: 'hostname',
  asn: 'asn',
};

/** "Where is this address?": one search across every list of every account of the person. */
export class IpSearchService {
  private readonly repository: IpSearchRepository;

  constructor(db: Queryable) {
    this.repository = new IpSearchRepository(db);
  }

  async search(userId: number, text: string): Promise<IpSearchAnswer> {
    const parsed = parseSearch(text);
    if (typeof parsed === 'string') throw new AppError('BAD_REQUEST', parsed);
    const lists = await this.repository.listsOf(userId, LIST_KIND[parsed.kind]);
    const refs = lists.map((list) => list.ref);
    // One past the bound tells whether there are more.
    const wanted = IP_SEARCH_MATCHES_MAX + 1;
    let found: FoundItem[];
    if (parsed.kind === 'hostname' || parsed.kind === 'asn') {
      found = await this.repository.exact(refs, parsed.value, wanted);
    } else {
      found = await this.repository.holding(refs, parsed.value, wanted);
      if (parsed.kind === 'cidr' && found.length < wanted)
        found = found.concat(await this.repository.within(refs, parsed.value, wanted - found.length));
    }
    const byRef = new Map<number, SearchedList>(lists.map((list) => [list.ref, list]));
    return {
      query: parsed,
      lists_searched: lists.length,
      matches: found.slice(0, IP_SEARCH_MATCHES_MAX).map((item) => toMatch(byRef.get(item.listRef)!, item)),
      truncated: found.length > IP_SEARCH_MATCHES_MAX,
    };
  }
}

function toMatch(list: SearchedList, item: FoundItem): IpSearchMatch {
  return {
    account_name: list.accountName,
    account_id: list.accountId,
    list_id: list.listId,
    list_name: list.listName,
    kind: list.kind,
    item_id: item.id,
    ip: item.ip,
    comment: item.comment,
    created_on: item.createdOn.toISOString(),
    relation: item.relation,
    added_via: item.addedVia,
    added_by: item.addedBy,
    expires_at: item.expiresAt ? new Date(item.expiresAt).toISOString() : null,
  };
}
