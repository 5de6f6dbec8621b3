// Kept apart, without zod: the web's first load imports them (lib/api.ts), not the schemas.

/** TOTP as every authenticator app reads it (RFC 6238 defaults): SHA-1, 6 digits, 30-second steps. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Recovery codes a person gets at once; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** How long the password step's challenge lasts before the person must start again. */
export const TWO_FACTOR_CHALLENGE_TTL_SECONDS = 300;

/**
 * `errors[0].code` of the 403 a person gets on any other route while an administrator requires
 * two-factor sign-in and they have not turned it on: the web sends them to turn it on.
 */
export const TWO_FACTOR_SETUP_REQUIRED = 'two_factor_setup_required';
