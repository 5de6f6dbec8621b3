import type { AddAccountRequest, CloudflareAccount } from '@guardian/contract';
import Cloudflare from 'cloudflare';
import type { CloudflareGateway } from '../../cloudflare';
import { maskToken, type TokenCipher } from '../../crypto/token-cipher';
import { AppError } from '../../app-error';
import { AccountsRepository, type AccountRecord } from './accounts.repository';

export function toAccountDto(account: AccountRecord): CloudflareAccount {
  return {
    id: account.id,
    account_name: account.accountName,
    account_id: account.accountId,
    token: maskToken(account.tokenLast4),
  };
}

function isTokenRefusal(err: unknown): err is InstanceType<typeof Cloudflare.APIError> {
  return (
    err instanceof Cloudflare.APIError && (err.status === 400 || err.status === 401 || err.status === 403)
  );
}

/** While adding, a refused token is the person's bad input (400 with Cloudflare's reason), not a 403. */
function refusedToken(err: InstanceType<typeof Cloudflare.APIError>): AppError {
  const reason = err.errors?.[0]?.message ?? 'the token is not valid';
  return new AppError('BAD_REQUEST', `Cloudflare refused this API token: ${reason}`);
}

export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly cloudflare: CloudflareGateway,
    private readonly cipher: TokenCipher,
  ) {}

  async list(userId: number): Promise<CloudflareAccount[]> {
    return (await this.accounts.listForUser(userId)).map(toAccountDto);
  }

  /**
   * Verifies the token at Cloudflare before anything is stored: it must be active and see at least
   * one account. A token that sees several accounts is bound to the first one Cloudflare lists.
   */
  async add(userId: number, request: AddAccountRequest): Promise<CloudflareAccount> {
    if (await this.accounts.findOwnedByName(userId, request.account_name)) {
      throw new AppError('CONFLICT', `You already have an account named "${request.account_name}".`);
    }
    const cf = this.cloudflare.client(request.token);
    const first = await this.verifyToken(cf);
    if (await this.accounts.findOwnedByCloudflareId(userId, first.id)) {
      throw new AppError('CONFLICT', `The Cloudflare account ${first.id} has already been added.`);
    }
    const account = await this.accounts.insert({
      userId,
      accountName: request.account_name,
      accountId: first.id,
      tokenEncrypted: this.cipher.encrypt(request.token),
      tokenLast4: request.token.slice(-4),
    });
    return toAccountDto(account);
  }

  /**
   * User tokens verify at /user/tokens/verify; account-owned tokens are refused there and verify at
   * /accounts/{id}/tokens/verify, once the accounts they see are known. Answers the first account.
   */
  private async verifyToken(cf: Cloudflare): Promise<{ id: string }> {
    try {
      let status: string | undefined;
      try {
        status = (await cf.user.tokens.verify()).status;
      } catch (err) {
        if (!isTokenRefusal(err)) throw err;
      }
      const first = (await cf.accounts.list({ per_page: 5 })).result[0];
      if (!first) throw new AppError('BAD_REQUEST', 'This API token cannot see any Cloudflare account.');
      status ??= (await cf.accounts.tokens.verify({ account_id: first.id })).status;
      if (status !== 'active')
        throw new AppError('BAD_REQUEST', `Cloudflare reports this API token as ${status}.`);
      return first;
    } catch (err) {
      throw isTokenRefusal(err) ? refusedToken(err) : err;
    }
  }
}
