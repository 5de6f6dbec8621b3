import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@guardian/contract';
import { Secret, TOTP } from 'otpauth';

/** The name authenticator apps list the entry under. */
const ISSUER = 'Guardian';
/** Steps either side of the current one whose codes are accepted: a clock 30 s off, or a slow typist. */
const WINDOW = 1;

function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** A new random secret of 160 bits (RFC 4226's recommended length), base32 as apps take it typed. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/Guardian:<email>?secret=...` URI the QR code carries. */
export function otpauthUrl(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** Whether the text has the form of a TOTP code (else it may be a recovery code). */
export function isTotpCode(code: string): boolean {
  return new RegExp(`^[0-9]{${TOTP_DIGITS}}$`).test(code);
}

/**
 * The time step (30 s since the epoch) whose code this is, among the current step and `WINDOW` either
 * side, or null when it is none of them. The caller refuses a step already used (replay).
 */
export function stepOfCode(secret: string, code: string, nowMs = Date.now()): number | null {
  if (!isTotpCode(code)) return null;
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: nowMs }) + delta;
}

/** Crockford's base32 alphabet: no I, L, O or U, so a code copied by hand is read as written. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Ten new codes `xxxxx-xxxxx` (50 random bits each: too many to guess, so a plain SHA-256 is enough). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/**
 * The SHA-256 a recovery code is stored and looked up by, of its normal form: case, spaces and dashes
 * do not matter, and letters people confuse with digits are read as Crockford does (o → 0, i and l → 1).
 */
export function recoveryCodeHash(code: string): Buffer {
  const normal = code.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  return createHash('sha256').update(normal).digest();
}
