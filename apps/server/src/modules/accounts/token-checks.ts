import { PeriodicSweep } from '../../periodic-sweep';
import { accountClient, type AccountClientDeps } from '../../cloudflare';
import {
  AccountsRepository,
  TOKEN_CHECK_EVERY_MS,
  type AccountWithTokenState,
  type TokenState,
} from './accounts.repository';
import { isTokenRefusal, verifyToken } from './token-verify';

/** How often each server process looks for tokens due a check. */
export const TOKEN_CHECK_SWEEP_MS = 5 * 60_000;
/**
 * Tokens checked per sweep, one after another: at most 1-2 Cloudflare calls each (a user token's
 * verify; an account-owned token's refusal there, then its account's verify), each within its own
 * token's request budget (the gateway's throttle), so a sweep is never a burst.
 */
export const TOKENS_PER_SWEEP = 20;
/** A check Cloudflare did not answer (down, rate limited) is tried again this much later. */
const RETRY_MS = 15 * 60_000;

/**
 * Rechecks every account's API token at Cloudflare on a schedule (issue 35 item 4), so a token
 * revoked, disabled or expired there shows on the accounts screen before actions start failing.
 * Scheduled as the expiry sweep is (PeriodicSweep): each process sweeps every `sweepMs`; a sweep
 * claims up to TOKENS_PER_SWEEP accounts due a check (`claimTokenChecks`: one statement, SKIP
 * LOCKED, each made due again TOKEN_CHECK_EVERY_MS later), so processes never check one token twice
 * in a round; an account added or given a new token is due TOKEN_CHECK_EVERY_MS after that check. Not a queued job: no person waits for it, and a row per check would crowd their jobs view.
 */
export class TokenChecks {
  private readonly periodic: PeriodicSweep;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly deps: AccountClientDeps,
    private readonly onError: (err: unknown) => void,
    sweepMs = TOKEN_CHECK_SWEEP_MS,
    /** Told what each check found (the token alerts, modules/alerts). */
    private readonly onChecked?: (account: AccountWithTokenState, state: TokenState) => Promise<void>,
  ) {
    this.periodic = new PeriodicSweep(() => this.sweep(), sweepMs, onError);
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** Checks the tokens due a check (at most TOKENS_PER_SWEEP); answers how many were taken. */
  async sweep(now = new Date()): Promise<number> {
    const due = await this.accounts.claimTokenChecks(
      now,
      new Date(now.getTime() + TOKEN_CHECK_EVERY_MS),
      TOKENS_PER_SWEEP,
    );
    for (const account of due) await this.check(account, now);
    return due.length;
  }

  /** Asks Cloudflare about one account's token and records what it said; refused at both verify endpoints is `revoked`. */
  private async check(account: AccountWithTokenState, now: Date): Promise<void> {
    try {
      const { state } = await verifyToken(accountClient(this.deps, account), account.accountId, now);
      await this.accounts.setTokenState(account.id, account.tokenEncrypted, state);
      await this.onChecked?.(account, state);
    } catch (err) {
      if (isTokenRefusal(err)) {
        const revoked: TokenState = { status: 'revoked', expiresOn: account.tokenExpiresOn, checkedAt: now };
        await this.accounts.setTokenState(account.id, account.tokenEncrypted, revoked);
        await this.onChecked?.(account, revoked);
        return;
      }
      await this.accounts.checkTokenAt(account.id, new Date(now.getTime() + RETRY_MS));
      this.onError(err);
    }
  }
}
