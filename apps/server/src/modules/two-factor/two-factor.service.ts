import {
  TWO_FACTOR_CHALLENGE_TTL_SECONDS,
  type CurrentUser,
  type RecoveryCodes,
  type TwoFactorConfirmRequest,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@guardian/contract';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../config';
import type { TokenCipher } from '../../crypto/token-cipher';
import { AppError } from '../../app-error';
import { verifyPassword } from '../users';
import { signChallenge, verifyChallenge, CHALLENGE_INVALID } from './challenge-token';
import { SecondStepLimiter } from './second-step-limiter';
import {
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  recoveryCodeHash,
  stepOfCode,
} from './totp';
import type { TwoFactorRecord, TwoFactorRepository } from './two-factor.repository';

export const WRONG_CODE =
  'That code is not right. Enter the 6-digit code your authenticator app shows now, or an unused recovery code.';
export const USED_CODE = 'That code was already used. Wait for the next code in your authenticator app.';
export const TOO_MANY_CODES = 'Too many wrong codes. Please wait a few minutes and try again.';
const WRONG_PASSWORD = 'The password is not right.';
const NOT_ON = 'Two-factor sign-in is not on for your account.';

/** What the password step does next for a person whose password was right. */
export type SignInStep =
  { kind: 'session'; setupRequired: boolean } | { kind: 'challenge'; token: string; expiresAt: Date };

/** Challenges that opened a session, remembered until they would have expired anyway. */
const MAX_USED_CHALLENGES = 10_000;
const MAX_CACHED_PEOPLE = 10_000;

/**
 * Two-factor sign-in (TOTP, RFC 6238, through otpauth): enrolment, the sign-in's second step with its
 * own rate limit, recovery codes, and the administrators' requirement and reset. The secret is stored
 * encrypted (TokenCipher); a code's time step is recorded when accepted, so no code works twice.
 */
export class TwoFactorService {
  private readonly limiter: SecondStepLimiter;
  private readonly usedChallenges = new LRUCache<string, true>({
    max: MAX_USED_CHALLENGES,
    ttl: TWO_FACTOR_CHALLENGE_TTL_SECONDS * 1000,
  });
  /** What the gate asks on every request, kept for `sessionRecheckMs` (changes made here apply at once). */
  private required: { value: boolean; until: number } | undefined;
  private readingRequired: Promise<boolean> | undefined;
  private requiredGeneration = 0;
  private readonly enabled: LRUCache<number, boolean> | undefined;

  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly cipher: TokenCipher,
    private readonly config: Pick<Config, 'jwtSecret' | 'loginRateLimit' | 'sessionRecheckMs'>,
    /** Told of an administrator's reset (the person's alert, modules/alerts). */
    private readonly onReset?: (userId: number) => Promise<void>,
  ) {
    this.limiter = new SecondStepLimiter(config.loginRateLimit);
    if (config.sessionRecheckMs > 0)
      this.enabled = new LRUCache({ max: MAX_CACHED_PEOPLE, ttl: config.sessionRecheckMs });
  }

  async status(userId: number): Promise<TwoFactorStatus> {
    const record = await this.record(userId);
    return {
      enabled: record.enabledAt !== null,
      enabled_at: record.enabledAt?.toISOString() ?? null,
      recovery_codes_left: record.enabledAt ? await this.repository.unusedRecoveryCodes(userId) : 0,
      required: await this.isRequired(),
    };
  }

  /** A new secret to confirm with a code; any earlier unconfirmed one is replaced. */
  async setup(user: CurrentUser): Promise<TwoFactorSetup> {
    const secret = newTotpSecret();
    if (!(await this.repository.storePendingSecret(user.id, this.cipher.encrypt(secret)))) {
      throw new AppError('CONFLICT', 'Two-factor sign-in is already on. Turn it off first to use a new app.');
    }
    return { secret, otpauth_url: otpauthUrl(secret, user.email) };
  }

  /** Turns two-factor on with a code of the pending secret; answers the recovery codes, once. */
  async enable(userId: number, code: string): Promise<RecoveryCodes> {
    const record = await this.record(userId);
    if (record.enabledAt) throw new AppError('CONFLICT', 'Two-factor sign-in is already on.');
    if (!record.encryptedSecret) {
      throw new AppError(
        'CONFLICT',
        'Start by scanning a new QR code: the setup was not started or was reset.',
      );
    }
    const step = stepOfCode(this.cipher.decrypt(record.encryptedSecret), code);
    if (step === null) throw wrongCode(WRONG_CODE);
    const codes = newRecoveryCodes();
    const enabled = await this.repository.enable(
      userId,
      record.encryptedSecret,
      step,
      codes.map(recoveryCodeHash),
    );
    if (!enabled) {
      throw new AppError(
        'CONFLICT',
        'The setup changed meanwhile (another window?). Scan the new QR code and try again.',
      );
    }
    this.enabled?.delete(userId);
    return { recovery_codes: codes };
  }

  /** Turns it off, confirmed with the password or a code. */
  async disable(userId: number, confirmation: TwoFactorConfirmRequest, address: string): Promise<void> {
    const record = await this.record(userId);
    if (record.enabledAt && (await this.isRequired())) {
      throw new AppError(
        'CONFLICT',
        'Your administrator requires two-factor sign-in: it cannot be turned off.',
      );
    }
    await this.confirm(record, confirmation, address);
    await this.repository.turnOff(userId, false);
    this.enabled?.delete(userId);
  }

  /** New recovery codes (the old ones stop working), confirmed with the password or a code. */
  async regenerateRecoveryCodes(
    userId: number,
    confirmation: TwoFactorConfirmRequest,
    address: string,
  ): Promise<RecoveryCodes> {
    await this.confirm(await this.record(userId), confirmation, address);
    const codes = newRecoveryCodes();
    await this.repository.replaceRecoveryCodes(userId, codes.map(recoveryCodeHash));
    return { recovery_codes: codes };
  }

  /** After a right password: a session (told whether enrolment is required), or a challenge. */
  async signInStep(userId: number, passwordStamp: string): Promise<SignInStep> {
    if (await this.repository.isEnabled(userId)) {
      const { token, expiresAt } = await signChallenge(userId, passwordStamp, this.config);
      return { kind: 'challenge', token, expiresAt };
    }
    return { kind: 'session', setupRequired: await this.isRequired() };
  }

  /** The person a challenge was made for (a 401 for a challenge that is invalid, expired or used). */
  async challengedUser(
    challengeToken: string,
  ): Promise<CurrentUser & { challengeId: string; passwordStamp: string }> {
    const challenge = await verifyChallenge(challengeToken, this.config);
    if (this.usedChallenges.has(challenge.id)) throw new AppError('UNAUTHORIZED', CHALLENGE_INVALID);
    const record = await this.repository.find(challenge.userId);
    // Disabled or deleted since the password step: start again.
    if (!record || record.disabled) throw new AppError('UNAUTHORIZED', CHALLENGE_INVALID);
    return {
      id: record.userId,
      email: record.email,
      level: record.level,
      challengeId: challenge.id,
      passwordStamp: challenge.passwordStamp,
    };
  }

  /**
   * The second step: a code of the person's app or one of their recovery codes, under its own rate
   * limit. A right code uses up the challenge.
   */
  async verifySignInCode(
    person: { id: number; challengeId: string },
    code: string,
    address: string,
  ): Promise<void> {
    await this.limiter.attempt(String(person.id), address, TOO_MANY_CODES, async () => {
      const record = await this.record(person.id);
      // Turned off (an administrator's reset) since the password step: start again (not counted).
      if (!record.enabledAt) throw new AppError('UNAUTHORIZED', CHALLENGE_INVALID);
      const outcome = await this.checkCode(record, code);
      if (outcome !== 'wrong' && outcome !== 'used') return { value: undefined };
      const message = outcome === 'used' ? USED_CODE : WRONG_CODE;
      return { refusal: new AppError('UNAUTHORIZED', message, { errors: [{ message, field: 'code' }] }) };
    });
    this.usedChallenges.set(person.challengeId, true);
  }

  /** Whether the gate keeps this person to enrolment: required of everyone, and not on for them. */
  async mustEnrol(userId: number): Promise<boolean> {
    if (!(await this.isRequired())) return false;
    let on = this.enabled?.get(userId);
    if (on === undefined) {
      on = await this.repository.isEnabled(userId);
      this.enabled?.set(userId, on);
    }
    return !on;
  }

  /** mustEnrol's answer from what is kept, without waiting: undefined when it has to be read. */
  mustEnrolKnown(userId: number): boolean | undefined {
    const required = this.required;
    if (!required || required.until <= Date.now()) return undefined;
    if (!required.value) return false;
    const on = this.enabled?.get(userId);
    return on === undefined ? undefined : !on;
  }

  async isRequired(): Promise<boolean> {
    if (this.required && this.required.until > Date.now()) return this.required.value;
    // Requests arriving while it is read wait for that one read (not one each, at every expiry).
    if (!this.readingRequired) {
      const generation = this.requiredGeneration;
      const reading: Promise<boolean> = this.repository
        .isRequired()
        .then((value) => {
          if (generation === this.requiredGeneration)
            this.required = { value, until: Date.now() + this.config.sessionRecheckMs };
          return value;
        })
        .finally(() => {
          if (this.readingRequired === reading) this.readingRequired = undefined;
        });
      this.readingRequired = reading;
    }
    return this.readingRequired;
  }

  async setRequired(required: boolean): Promise<void> {
    await this.repository.setRequired(required);
    this.requiredGeneration++;
    this.required = undefined;
    this.readingRequired = undefined;
  }

  /** An administrator's reset (lost phone): off, recovery codes gone, the person's sessions ended. */
  async reset(userId: number): Promise<void> {
    if (!(await this.repository.turnOff(userId, true))) throw new AppError('NOT_FOUND', 'User not found.');
    this.enabled?.delete(userId);
    await this.onReset?.(userId);
  }

  /** The users CLI's reset, by e-mail (the only administrator lost phone and codes): the person's alert too. */
  async resetByEmail(email: string): Promise<boolean> {
    const userId = await this.repository.resetByEmail(email);
    if (userId === undefined) return false;
    this.enabled?.delete(userId);
    await this.onReset?.(userId);
    return true;
  }

  private async record(userId: number): Promise<TwoFactorRecord> {
    const record = await this.repository.find(userId);
    if (!record)
      throw new AppError('UNAUTHORIZED', 'Your account is no longer active. Please sign in again.');
    return record;
  }

  /**
   * The password or a code, for turning off and for new recovery codes (400s: the session stays).
   * Under the second step's limit: a stolen session is no way to guess the password or a code.
   */
  private async confirm(
    record: TwoFactorRecord,
    { password, code }: TwoFactorConfirmRequest,
    address: string,
  ): Promise<void> {
    if (!record.enabledAt) throw new AppError('CONFLICT', NOT_ON);
    await this.limiter.attempt(String(record.userId), address, TOO_MANY_CODES, async () => {
      if (password !== undefined) {
        return (await verifyPassword(record.passwordHash, password))
          ? { value: undefined }
          : {
              refusal: new AppError('BAD_REQUEST', WRONG_PASSWORD, {
                errors: [{ message: WRONG_PASSWORD, field: 'password' }],
              }),
            };
      }
      const outcome = await this.checkCode(record, code ?? '');
      return outcome === 'wrong' || outcome === 'used'
        ? { refusal: wrongCode(outcome === 'used' ? USED_CODE : WRONG_CODE) }
        : { value: undefined };
    });
  }

  /** A TOTP code (once per time step) or an unused recovery code (used up here). */
  private async checkCode(record: TwoFactorRecord, code: string): Promise<CodeOutcome> {
    if (!record.encryptedSecret) return 'wrong';
    if (isTotpCode(code)) {
      const step = stepOfCode(this.cipher.decrypt(record.encryptedSecret), code);
      if (step === null) return 'wrong';
      if (record.lastStep !== null && step <= record.lastStep) return 'used';
      return (await this.repository.claimStep(record.userId, step)) ? 'totp' : 'used';
    }
    return (await this.repository.claimRecoveryCode(record.userId, recoveryCodeHash(code)))
      ? 'recovery'
      : 'wrong';
  }
}

type CodeOutcome = 'totp' | 'recovery' | 'used' | 'wrong';

/** A wrong code while signed in: a 400, so the web keeps the session (a 401 would sign the person out). */
function wrongCode(message: string): AppError {
  return new AppError('BAD_REQUEST', message, { errors: [{ message, field: 'code' }] });
}
