import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { chmod, rename, writeFile } from 'node:fs/promises';
import { makeItem, parseItem } from './resources/lists';
import {
  ListItemStore,
  type Account,
  type BanList,
  type BulkOperation,
  type DnsRecord,
  type ListItem,
  type PageRule,
  type Ruleset,
  type SandboxState,
  type Token,
  type Zone,
} from './state';

/** A list item on disk: [id, value (ip, hostname, redirect or asn), comment or null, created, modified]. */
type SavedItem = [string, unknown, string | null, string, string];

interface SavedState {
  version: 1;
  accounts: Account[];
  tokens: Token[];
  zones: Zone[];
  dnsRecords: DnsRecord[];
  rulesets: Ruleset[];
  pageRules: PageRule[];
  lists: (Omit<BanList, 'items'> & { items: SavedItem[] })[];
  bulkOperations: BulkOperation[];
}

function itemValue(item: ListItem): unknown {
  return item.ip ?? item.hostname ?? item.redirect ?? item.asn;
}

export function serializeState(state: SandboxState): SavedState {
  return {
    version: 1,
    accounts: [...state.accounts.values()],
    tokens: [...state.tokens.values()],
    zones: [...state.zones.values()],
    dnsRecords: [...state.dnsRecords.values()],
    rulesets: [...state.rulesets.values()],
    pageRules: [...state.pageRules.values()],
    lists: [...state.lists.values()].map(({ items, ...list }) => ({
      ...list,
      items: items
        .ordered()
        .map((item) => [item.id, itemValue(item), item.comment ?? null, item.createdOn, item.modifiedOn]),
    })),
    // Only finished operations: pending ones are settled before the last save.
    bulkOperations: [...state.bulkOperations.values()].filter(
      (operation) => operation.status === 'completed' || operation.status === 'failed',
    ),
  };
}

export function restoreState(state: SandboxState, saved: SavedState): void {
  if (saved.version !== 1) throw new Error(`Unsupported sandbox state version: ${String(saved.version)}`);
  state.clear();
  for (const account of saved.accounts) state.accounts.set(account.id, account);
  for (const token of saved.tokens) state.tokens.set(token.value, token);
  for (const zone of saved.zones) state.zones.set(zone.id, zone);
  for (const record of saved.dnsRecords) state.dnsRecords.set(record.id, record);
  for (const ruleset of saved.rulesets) state.rulesets.set(ruleset.id, ruleset);
  for (const rule of saved.pageRules) state.pageRules.set(rule.id, rule);
  for (const operation of saved.bulkOperations) state.bulkOperations.set(operation.id, operation);
  for (const { items, ...saved_list } of saved.lists) {
    const list: BanList = { ...saved_list, items: new ListItemStore() };
    for (const [id, value, comment, createdOn, modifiedOn] of items) {
      const field = list.kind === 'ip' ? 'ip' : list.kind;
      const parsed = parseItem(
        list.kind,
        comment === null ? { [field]: value } : { [field]: value, comment },
      );
      if (typeof parsed === 'string') throw new Error(`Corrupt list item ${id} in the state file: ${parsed}`);
      list.items.add(makeItem(parsed, id, createdOn, modifiedOn));
    }
    state.lists.set(list.id, list);
  }
}

/** The state holds API tokens in clear: the file is its owner's alone. */
const STATE_FILE_MODE = 0o600;

export function loadStateFile(state: SandboxState, file: string): boolean {
  if (!existsSync(file)) return false;
  // A file an earlier version wrote readable by everyone.
  chmodSync(file, STATE_FILE_MODE);
  restoreState(state, JSON.parse(readFileSync(file, 'utf8')) as SavedState);
  return true;
}

/** Saves the state to a file a moment after each change (debounced), one write at a time. */
export class StateSaver {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: SandboxState,
    readonly file: string,
    private readonly debounceMs: number,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes now (after any write in progress); atomic through a temporary file and a rename. */
  save(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.writing = this.writing.then(async () => {
      const temporary = `${this.file}.tmp`;
      await writeFile(temporary, JSON.stringify(serializeState(this.state)), { mode: STATE_FILE_MODE });
      // The mode above applies only to a new file: a leftover temporary file keeps its own.
      await chmod(temporary, STATE_FILE_MODE);
      await rename(temporary, this.file);
    });
    return this.writing;
  }
}
