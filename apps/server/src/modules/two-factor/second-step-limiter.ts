import { LoginLimiter, type Key } from '../../login-limiter';

/**
 * The second step's own limit, with the password step's rules (allowance, growing waits, draining):
 * failures count per person, wherever they come from (whoever tries has their password already, and
 * a 6-digit code must not be guessed from many addresses at once), and per client address.
 * `acquire(userKey, address)` takes the person's id as the first key.
 */
export class SecondStepLimiter extends LoginLimiter {
  protected override keysOf(userKey: string, address: string): Key[] {
    return [
      { kind: 'pair', name: `user:${userKey}`, allowance: this.limits.maxFailuresPerEmail },
      { kind: 'address', name: `address:${address}`, allowance: this.limits.maxFailuresPerAddress },
    ];
  }
}
