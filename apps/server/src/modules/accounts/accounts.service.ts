import type { AddAccountRequest, CloudflareAccount, UpdateAccountRequest } from '@guardian/contract';
import type Cloudflare from 'cloudflare';
import type { CloudflareGateway } from '../../cloudflare';
import { maskToken, type TokenCipher } from '../../crypto/token-cipher';
import type { Db, Queryable } from '../../db';
import { AppError } from '../../app-error';
import {
  AccountsRepository,
  type AccountRecord,
  type AccountWithTokenState,
  type TokenState,
} from './accounts.repository';
import { firstAccount, isTokenRefusal, reachesAccount, refusedToken, verifyToken } from './token-verify';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toAccountDto(account: AccountWithTokenState): CloudflareAccount {
  return {
    id: account.id,
    account_name: account.accountName,
    account_id: account.accountId,
    token: maskToken(account.tokenLast4),
    token_status: account.tokenStatus,
    token_expires_on: iso(account.tokenExpiresOn),
    token_checked_at: iso(account.tokenCheckedAt),
  };
}

const accountNotFound = () => new AppError('NOT_FOUND', 'Account not found.');

/** A token Cloudflare answered for but does not accept (disabled, expired) is refused, with its status. */
function requireActive(state: TokenState): void {
  if (state.status !== 'active')
    throw new AppError('BAD_REQUEST', `Cloudflare reports this API token as ${state.status}.`);
}

/** Cloudflare's refusal of a token being added or replaced is the person's bad input (a 400 in words). */
async function asInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw isTokenRefusal(err) ? refusedToken(err) : err;
  }
}

/** What removing an account took with it (the audit trail records it). */
export interface AccountRemoved {
  account_id: string;
  account_name: string;
  lists: number;
  zones: number;
  snapshots: number;
}

/**
 * What an account's ban lists need when it comes and when it goes. Given by the composition root: the
 * ban-list modules build on accounts, so accounts do not import them.
 */
export interface AccountLists {
  /** Brings a newly added account's lists in (recorded, each list's sync queued as a job); answers how many. */
  bringIn(userId: number, account: AccountRecord): Promise<number>;
  /** Drops the mirror of the account's lists inside `tx` (item partitions have no foreign key to cascade). */
  dropItems(tx: Queryable, listRefs: readonly number[]): Promise<void>;
}

export class AccountsService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsRepository,
    private readonly cloudflare: CloudflareGateway,
    private readonly cipher: TokenCipher,
    private readonly lists: AccountLists,
  ) {}

  async list(userId: number): Promise<CloudflareAccount[]> {
    return (await this.accounts.listForUser(userId)).map(toAccountDto);
  }

  /**
   * Verifies the token at Cloudflare before anything is stored: it must be active and see at least
   * one account. A token that sees several accounts is bound to the first one Cloudflare lists. The
   * account's lists are then brought in (their items by a sync job each); when Cloudflare does not
   * answer for them, the account is not kept either, so a retry starts clean.
   */
  async add(
    userId: number,
    request: AddAccountRequest,
  ): Promise<{ account: CloudflareAccount; listsSyncing: number }> {
    if (await this.accounts.findOwnedByName(userId, request.account_name)) {
      throw new AppError('CONFLICT', `You already have an account named "${request.account_name}".`);
    }
    const cf = this.cloudflare.client(request.token);
    const { accountId, state } = await asInput(async () => {
      const verified = await verifyToken(cf, () => firstAccount(cf));
      return { accountId: verified.accountId ?? (await firstAccount(cf)), state: verified.state };
    });
    requireActive(state);
    if (await this.accounts.findOwnedByCloudflareId(userId, accountId)) {
      throw new AppError('CONFLICT', `The Cloudflare account ${accountId} has already been added.`);
    }
    const account = await this.accounts.insert(
      {
        userId,
        accountName: request.account_name,
        accountId,
        tokenEncrypted: this.cipher.encrypt(request.token),
        tokenLast4: request.token.slice(-4),
      },
      state,
    );
    let listsSyncing: number;
    try {
      listsSyncing = await this.lists.bringIn(userId, account);
    } catch (err) {
      await this.removeFromGuardian(account);
      throw err;
    }
    return { account: toAccountDto(account), listsSyncing };
  }

  /**
   * Renames the account and/or replaces its token. A new token is verified at Cloudflare first: it
   * must be active and reach this same Cloudflare account; only then is it stored (encrypted), and
   * the answer shows its last four characters only.
   */
  async update(userId: number, id: number, request: UpdateAccountRequest): Promise<CloudflareAccount> {
    const account = await this.accounts.findOwned(userId, id);
    if (!account) throw accountNotFound();
    const name = request.account_name?.trim();
    if (name !== undefined) {
      const named = await this.accounts.findOwnedByName(userId, name);
      if (named && named.id !== id)
        throw new AppError('CONFLICT', `You already have an account named "${name}".`);
    }
    const token = request.token?.trim() || undefined;
    let replacement: { encrypted: string; last4: string; state: TokenState } | undefined;
    if (token !== undefined) {
      const state = await this.verifyFor(this.cloudflare.client(token), account.accountId);
      replacement = { encrypted: this.cipher.encrypt(token), last4: token.slice(-4), state };
    }
    const updated = await this.accounts.update(userId, id, { accountName: name, token: replacement });
    if (!updated) throw accountNotFound();
    return toAccountDto(updated);
  }

  /**
   * Removes the account from Guardian: its lists with their items mirror and history, its zones, and
   * the snapshots that kept its lists or records. Nothing is deleted at Cloudflare. Refused while a
   * job works on the account (a sync, an expiry run): it would write into what is being removed.
   */
  async remove(userId: number, id: number): Promise<AccountRemoved> {
    const account = await this.accounts.findOwned(userId, id);
    if (!account) throw accountNotFound();
    const busy = await this.accounts.activeJobs(id);
    if (busy > 0) {
      throw new AppError(
        'CONFLICT',
        `Guardian is still working on "${account.accountName}" (${busy} job${busy === 1 ? '' : 's'}). Wait for ${busy === 1 ? 'it' : 'them'} to end, or cancel ${busy === 1 ? 'it' : 'them'} under Jobs, then delete the account.`,
      );
    }
    const removed = await this.removeFromGuardian(account);
    return {
      account_id: account.accountId,
      account_name: account.accountName,
      ...removed,
    };
  }

  /** The account and everything Guardian keeps of it, in one transaction. */
  private removeFromGuardian(account: AccountRecord) {
    return this.db.transaction(async (tx) => {
      const accounts = new AccountsRepository(tx);
      const { lists, zones } = await accounts.holdings(account.id);
      await this.lists.dropItems(tx, lists);
      const snapshots = await accounts.deleteSnapshotsOf(account.userId, account.id);
      await accounts.delete(account.userId, account.id);
      return { lists: lists.length, zones, snapshots };
    });
  }

  /** The state of a replacement token for the account; refused unless active and reaching that account. */
  private async verifyFor(cf: Cloudflare, accountId: string): Promise<TokenState> {
    return asInput(async () => {
      const verified = await verifyToken(cf, accountId);
      requireActive(verified.state);
      if (verified.kind === 'user' && !(await reachesAccount(cf, accountId))) {
        throw new AppError(
          'BAD_REQUEST',
          `This API token cannot see the Cloudflare account ${accountId}: give a token of the same account.`,
        );
      }
      return verified.state;
    });
  }
}
