import { AppError } from '../app-error';
import type { Queryable } from '../db';

/** A Lists write budget per Cloudflare account: item changes and modifying requests per window. */
export interface ListWriteLimits {
  items: number;
  requests: number;
  windowMs: number;
}

/**
 * Cloudflare's Lists write budget per account (../shared/cloudflare/README.md, Cloudflare docs PR
 * #25671): at most 1,000,000 item changes and 30,000 modifying requests per 12 hours.
 */
export const CLOUDFLARE_LIST_WRITE_LIMITS: ListWriteLimits = {
  items: 1_000_000,
  requests: 30_000,
  windowMs: 12 * 60 * 60_000,
};

/** How long until then, for a person: "about 3 hours 20 minutes", "about 4 minutes", "a minute". */
function inWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 2) return 'a minute';
  if (minutes < 60) return `about ${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const h = `${hours} hour${hours === 1 ? '' : 's'}`;
  return rest === 0 ? `about ${h}` : `about ${h} ${rest} minute${rest === 1 ? '' : 's'}`;
}

const count = (n: number) => n.toLocaleString('en');

/**
 * The Lists write budget of each Cloudflare account, counted in the database (`list_write_budget_take`,
 * migration 018): every server process on it shares one count. A list write takes its share before
 * it is sent; past the budget it is refused (429, in words, with when it frees up) and never sent:
 * Cloudflare would refuse it too, and its refusals are what the budget exists to avoid.
 */
export class ListWriteBudget {
  constructor(
    private readonly db: Queryable,
    readonly limits: ListWriteLimits = CLOUDFLARE_LIST_WRITE_LIMITS,
  ) {}

  /**
   * Counts one write of `changes` item changes to the account `accountId` (Cloudflare's id), or
   * throws a RATE_LIMITED AppError naming the account (`accountName`) and when it frees up.
   */
  async take(accountId: string, accountName: string, changes: number): Promise<void> {
    const [row] = await this.db.query<{ wait: number }>(
      'SELECT list_write_budget_take($1, $2, $3, $4, $5) AS wait',
      [
        accountId,
        Math.max(0, Math.ceil(changes)),
        this.limits.requests,
        this.limits.items,
        Math.ceil(this.limits.windowMs / 1000),
      ],
    );
    const wait = Number(row?.wait ?? 0);
    if (wait === 0) return;
    const budget = `${count(this.limits.items)} item changes and ${count(this.limits.requests)} writes per ${inWords(this.limits.windowMs / 1000).replace(/^about /, '')}`;
    if (wait < 0)
      throw new AppError(
        'BAD_REQUEST',
        `This change of ${count(changes)} items to the lists of "${accountName}" is larger than Cloudflare's whole list write budget (${budget}).`,
      );
    const seconds = Math.ceil(wait);
    const at = new Date(Date.now() + seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
    throw new AppError(
      'RATE_LIMITED',
      `The lists of "${accountName}" have used Cloudflare's list write budget (${budget}); nothing was sent. It frees up in ${inWords(seconds)} (at ${at} UTC).`,
      { retryAfterSeconds: seconds },
    );
  }
}
