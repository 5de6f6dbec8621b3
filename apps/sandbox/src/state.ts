/** The sandbox's in-memory Cloudflare: plain records in Maps, shared by every resource module. */

export type Plan = 'free' | 'pro' | 'business' | 'enterprise';
export type TokenStatus = 'active' | 'disabled' | 'expired';
export type TokenKind = 'user' | 'account';
export type ListKind = 'ip' | 'redirect' | 'hostname' | 'asn';
export type ZoneStatus = 'initializing' | 'pending' | 'active' | 'moved';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  createdOn: string;
}

export interface Token {
  id: string;
  value: string;
  accountIds: string[];
  status: TokenStatus;
  kind: TokenKind;
  expiresOn?: string;
}

export interface Zone {
  id: string;
  accountId: string;
  name: string;
  type: 'full' | 'partial' | 'secondary' | 'internal';
  status: ZoneStatus;
  paused: boolean;
  nameServers: string[];
  vanityNameServers: string[];
  createdOn: string;
  modifiedOn: string;
  activatedOn: string | null;
  /** Zone settings changed from their defaults, by setting id (see resources/zone-settings.ts). */
  settings?: Record<string, { value: unknown; modifiedOn: string }>;
  /** The Bot Management fields changed from their defaults. */
  botManagement?: Record<string, unknown>;
}

export interface DnsRecord {
  id: string;
  zoneId: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
  proxied: boolean;
  priority?: number;
  data?: Record<string, unknown>;
  comment: string;
  tags: string[];
  createdOn: string;
  modifiedOn: string;
  commentModifiedOn?: string;
  tagsModifiedOn?: string;
}

export interface CustomRule {
  id: string;
  version: number;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  ref: string;
  lastUpdated: string;
  actionParameters?: Record<string, unknown>;
  logging?: { enabled: boolean };
}

export interface Ruleset {
  id: string;
  zoneId: string;
  name: string;
  description: string;
  kind: 'zone';
  phase: string;
  version: number;
  lastUpdated: string;
  rules: CustomRule[];
}

export interface PageRuleAction {
  id: string;
  value?: unknown;
}

export interface PageRuleTarget {
  target: 'url';
  constraint: { operator: string; value: string };
}

export interface PageRule {
  id: string;
  zoneId: string;
  targets: PageRuleTarget[];
  actions: PageRuleAction[];
  priority: number;
  status: 'active' | 'disabled';
  createdOn: string;
  modifiedOn: string;
}

/** One list item in every kind; exactly one of ip/hostname/redirect/asn is set, as the list's kind says. */
export interface ListItem {
  id: string;
  /** Identity inside its list: a second write with the same key updates this item. */
  key: string;
  /** Cloudflare returns items in ascending order; numbers sort before strings (IPv4 before IPv6). */
  sortKey: number | string;
  ip?: string;
  hostname?: { url_hostname: string; exclude_exact_hostname?: boolean };
  redirect?: Record<string, unknown>;
  asn?: number;
  comment?: string;
  createdOn: string;
  modifiedOn: string;
}

export interface BanList {
  id: string;
  accountId: string;
  name: string;
  description: string;
  kind: ListKind;
  createdOn: string;
  modifiedOn: string;
  items: ListItemStore;
}

export type BulkOperationStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface BulkOperation {
  id: string;
  accountId: string;
  listId: string;
  status: BulkOperationStatus;
  error?: string;
  completed?: string;
}

/**
 * Items of one list: a Map by key for writes and an array kept in Cloudflare's order for cursor reads.
 * The order is re-sorted lazily on the next read after a write (TimSort makes re-sorting an almost
 * sorted array nearly linear), so seeding and bulk writes never pay per item.
 */
export class ListItemStore {
  private readonly byKey = new Map<string, ListItem>();
  private readonly byId = new Map<string, ListItem>();
  private order: ListItem[] = [];
  private sorted = true;
  private hasRemovals = false;

  get size(): number {
    return this.byKey.size;
  }

  getByKey(key: string): ListItem | undefined {
    return this.byKey.get(key);
  }

  getById(id: string): ListItem | undefined {
    return this.byId.get(id);
  }

  /** Adds a new item; the caller has checked that its key is not present. */
  add(item: ListItem): void {
    this.byKey.set(item.key, item);
    this.byId.set(item.id, item);
    this.order.push(item);
    this.sorted = false;
  }

  removeById(id: string): boolean {
    const item = this.byId.get(id);
    if (!item) return false;
    this.byId.delete(id);
    this.byKey.delete(item.key);
    this.hasRemovals = true;
    return true;
  }

  clear(): void {
    this.byKey.clear();
    this.byId.clear();
    this.order = [];
    this.sorted = true;
    this.hasRemovals = false;
  }

  /** Every item in Cloudflare's order. The array is shared: callers must not change it. */
  ordered(): readonly ListItem[] {
    if (this.hasRemovals) {
      this.order = this.order.filter((item) => this.byId.get(item.id) === item);
      this.hasRemovals = false;
    }
    if (!this.sorted) {
      this.order.sort(compareItems);
      this.sorted = true;
    }
    return this.order;
  }
}

export function compareSortKeys(a: number | string, b: number | string): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const compareItems = (a: ListItem, b: ListItem): number => compareSortKeys(a.sortKey, b.sortKey);

export class SandboxState {
  readonly accounts = new Map<string, Account>();
  /** By token value, the bearer string the client sends. */
  readonly tokens = new Map<string, Token>();
  readonly zones = new Map<string, Zone>();
  readonly dnsRecords = new Map<string, DnsRecord>();
  /** By ruleset id; each belongs to one zone. */
  readonly rulesets = new Map<string, Ruleset>();
  readonly pageRules = new Map<string, PageRule>();
  readonly lists = new Map<string, BanList>();
  readonly bulkOperations = new Map<string, BulkOperation>();

  private readonly changeListeners: (() => void)[] = [];

  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Every write calls this, so persistence can save (debounced). */
  changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  clear(): void {
    this.accounts.clear();
    this.tokens.clear();
    this.zones.clear();
    this.dnsRecords.clear();
    this.rulesets.clear();
    this.pageRules.clear();
    this.lists.clear();
    this.bulkOperations.clear();
  }

  zonesOf(accountId: string): Zone[] {
    return [...this.zones.values()].filter((zone) => zone.accountId === accountId);
  }

  listsOf(accountId: string): BanList[] {
    return [...this.lists.values()].filter((list) => list.accountId === accountId);
  }

  rulesetsOf(zoneId: string): Ruleset[] {
    return [...this.rulesets.values()].filter((ruleset) => ruleset.zoneId === zoneId);
  }
}
