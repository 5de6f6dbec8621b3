/** Every request the Cloudflare API received, so tests can count calls per action. */
export interface CallRecord {
  method: string;
  /** Path after /client/v4, without the query string. */
  path: string;
  query: string;
  /** The bearer token sent, or null. */
  token: string | null;
  /** The HTTP status answered; 0 while running or when the connection was dropped. */
  status: number;
  at: number;
}

export interface CallFilter {
  method?: string;
  path?: string | RegExp;
  token?: string;
}

export function matchesCall(call: CallRecord, filter: CallFilter = {}): boolean {
  if (filter.method !== undefined && call.method !== filter.method.toUpperCase()) return false;
  if (filter.token !== undefined && call.token !== filter.token) return false;
  if (filter.path === undefined) return true;
  return typeof filter.path === 'string' ? call.path === filter.path : filter.path.test(call.path);
}

export class CallLog {
  private calls: CallRecord[] = [];

  constructor(private readonly limit: number) {}

  add(call: CallRecord): void {
    this.calls.push(call);
    // Drop the oldest in chunks, so a long benchmark keeps memory bounded without shifting per call.
    if (this.calls.length > this.limit) this.calls = this.calls.slice(-Math.floor(this.limit * 0.9));
  }

  list(filter?: CallFilter): CallRecord[] {
    return this.calls.filter((call) => matchesCall(call, filter)).map((call) => ({ ...call }));
  }

  count(filter?: CallFilter): number {
    let count = 0;
    for (const call of this.calls) if (matchesCall(call, filter)) count++;
    return count;
  }

  reset(): void {
    this.calls = [];
  }
}
