import {
  IP_SEARCH_MATCHES_MAX,
  parseIpSearch,
  type BanListKind,
  type IpSearchAnswer,
  type IpSearchFoundList,
  type IpSearchKind,
  type IpSearchMatch,
} from '@guardian/contract';
import { createHash } from 'node:crypto';
import { AppError } from '../../app-error';
import { AnswerCache } from '../../answer-cache';
import type { AnswerCaches } from '../../deps';
import type { Queryable } from '../../db';
import { parseItemValue } from '../ban-list-mirror';
import { IpSearchRepository, type FoundItem, type SearchedList } from './ip-search.repository';

/** What the search box's text was read as. */
export type ParsedSearch =
  { kind: 'address' | 'cidr'; value: string } | { kind: 'hostname' | 'asn'; value: string };

/** Text shaped like an IP address or CIDR (digits and dots, or anything with a colon): read only as one. */
const LOOKS_LIKE_IP = /^(?:[0-9.]+\.[0-9.]*|[0-9a-f.:]*:[0-9a-f.:]*)(?:\/.*)?$/i;
const LOOKS_LIKE_ASN = /^(?:as)?\s*[0-9]+$/i;

/**
 * Reads the search box as the Add dialog reads an item (list-item-value.ts, the contract's ip-address.ts):
 * an IPv4 or IPv6 address or CIDR (any prefix here), an AS number (`13335`, `AS13335`), or a hostname. A
 * string is the reason it is none of them.
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

/** Characters of JSON kept in all by the answer cache (an answer of 500 matches of one list: about 90,000). */
const CACHED_ANSWER_CHARS = 16_000_000;
/** Lists kept in all, across people and kinds, for the moment a version is taken as read. */
const KEPT_LISTS_MAX = 200_000;
/** How long a person's lists' version is taken as read (as a page read takes its list: ban-list-mirror/owned-lists.ts). */
const VERSION_KEPT_MS = 1_000;

/** A person's lists of a kind as last read, the version of the answers they make, and this process's writes then. */
interface KeptLists {
  lists: SearchedList[];
  version: string;
  changes: number;
}

/** "Where is this address?": one search across every list of every account of the person. */
export class IpSearchService {
  private readonly repository: IpSearchRepository;
  /**
   * Answers by person, search and the version of the person's lists of its kind (their items' versions
   * and names). A change to any of those lists, in any server process, changes the version: a stale
   * answer is never asked for again and ages out.
   */
  private readonly answers: AnswerCache<string>;
  /**
   * The person's lists of a kind and their version, read at most once a second per person and kind
   * (searches come in bursts) and anew after any list write of this process; another process's write
   * shows within the second. The lists are read with what the version is made of, so a search after a
   * change costs that one read and its own statement.
   */
  private readonly lists: AnswerCache<KeptLists>;

  constructor(
    db: Queryable,
    /** This process's count of list writes (OwnedLists): lists kept for a moment check it. */
    private readonly owned: { readonly changes: number },
    caching: AnswerCaches,
  ) {
    this.repository = new IpSearchRepository(db);
    this.answers = new AnswerCache(caching, {
      maxSize: CACHED_ANSWER_CHARS,
      sizeCalculation: (json) => json.length,
    });
    this.lists = new AnswerCache(caching, {
      maxSize: KEPT_LISTS_MAX,
      sizeCalculation: (kept) => kept.lists.length + 1,
      ttl: VERSION_KEPT_MS,
    });
  }

  /** The answer as the JSON of `IpSearchAnswer`, serialised once per search and version of the lists. */
  async searchJson(userId: number, text: string): Promise<string> {
    const parsed = parseSearch(text);
    if (typeof parsed === 'string') throw new AppError('BAD_REQUEST', parsed);
    const { lists, version } = await this.listsOf(userId, LIST_KIND[parsed.kind]);
    const key = [userId, parsed.kind, parsed.value, version].join('\u0000');
    const cached = this.answers.get(key);
    if (cached !== undefined) return cached;
    const json = JSON.stringify((await this.find(lists, parsed)) satisfies IpSearchAnswer);
    this.answers.set(key, json);
    return json;
  }

  /**
   * The version of the person's lists of a kind (their items' versions and names): what `listsHolding`
   * finds changes only with it. Read at most once a second, and anew after a list write of this process.
   */
  async listsVersion(userId: number, kind: BanListKind): Promise<string> {
    return (await this.listsOf(userId, kind)).version;
  }

  /**
   * For each address, the person's IP lists holding it (exactly or in a CIDR): what a report marks
   * as already banned. At most `perAddress` lists each; what is not an address holds nothing.
   */
  async listsHolding(
    userId: number,
    addresses: readonly string[],
    perAddress: number,
  ): Promise<Map<string, { accountId: string; listId: string; listName: string }[]>> {
    const holding = new Map<string, { accountId: string; listId: string; listName: string }[]>(
      addresses.map((address) => [address, []]),
    );
    const { lists } = await this.listsOf(userId, 'ip');
    const byRef = new Map(lists.map((list) => [list.ref, list]));
    // What is one address, in the form the mirror keeps (`parseSearch`); the rest holds nothing.
    const asked: { address: string; inet: string }[] = [];
    for (const address of addresses) {
      const parsed = parseSearch(address);
      if (typeof parsed !== 'string' && parsed.kind === 'address')
        asked.push({ address, inet: parsed.value });
    }
    const found = await this.repository.holdingEach(
      lists.map((list) => list.ref),
      asked.map((one) => one.inet),
      perAddress * 4,
    );
    for (const { index, listRef } of found) {
      const held = holding.get(asked[index]!.address)!;
      const list = byRef.get(listRef)!;
      if (held.length < perAddress && !held.some((one) => one.listId === list.listId))
        held.push({ accountId: list.accountId, listId: list.listId, listName: list.listName });
    }
    return holding;
  }

  private async listsOf(userId: number, kind: BanListKind): Promise<KeptLists> {
    const key = `${userId}\u0000${kind}`;
    const changes = this.owned.changes;
    const kept = this.lists.get(key);
    if (kept && kept.changes === changes) return kept;
    const lists = await this.repository.listsOf(userId, kind);
    const version = createHash('sha256').update(JSON.stringify(lists)).digest('base64url');
    const read = { lists, version, changes };
    this.lists.set(key, read);
    return read;
  }

  private async find(lists: readonly SearchedList[], parsed: ParsedSearch): Promise<IpSearchAnswer> {
    const refs = lists.map((list) => list.ref);
    // One past the bound tells whether there are more.
    const wanted = IP_SEARCH_MATCHES_MAX + 1;
    const found =
      parsed.kind === 'hostname' || parsed.kind === 'asn'
        ? await this.repository.exact(refs, parsed.value, wanted)
        : parsed.kind === 'cidr'
          ? await this.repository.holdingOrWithin(refs, parsed.value, wanted)
          : await this.repository.holding(refs, parsed.value, wanted);
    return {
      query: parsed,
      lists_searched: lists.length,
      lists: groupByList(lists, found.slice(0, IP_SEARCH_MATCHES_MAX)),
      truncated: found.length > IP_SEARCH_MATCHES_MAX,
    };
  }
}

/**
 * The matches under their lists, each list named once: a list comes where its first match falls, and
 * its matches keep their order.
 */
function groupByList(lists: readonly SearchedList[], found: FoundItem[]): IpSearchFoundList[] {
  const byRef = new Map<number, SearchedList>(lists.map((list) => [list.ref, list]));
  const grouped = new Map<number, IpSearchFoundList>();
  for (const item of found) {
    let group = grouped.get(item.listRef);
    if (!group) {
      const list = byRef.get(item.listRef)!;
      group = {
        account_name: list.accountName,
        account_id: list.accountId,
        list_id: list.listId,
        list_name: list.listName,
        kind: list.kind,
        matches: [],
      };
      grouped.set(item.listRef, group);
    }
    group.matches.push(toMatch(item));
  }
  return [...grouped.values()];
}

function toMatch(item: FoundItem): IpSearchMatch {
  return {
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
