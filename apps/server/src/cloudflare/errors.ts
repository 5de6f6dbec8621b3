import Cloudflare from 'cloudflare';
import { AppError } from '../app-error';
import { isBudgetRefusal, isLocalAnswer, MAX_BLOCK_MS } from './client';

interface CloudflareErrorBody {
  errors?: { message?: unknown; error_chain?: { message?: unknown }[] }[];
  messages?: ({ message?: unknown } | string)[];
}

/** Cloudflare's words shown to a person: enough to act on, never a wall of text. */
export const MAX_UPSTREAM_MESSAGE_LENGTH = 300;

/**
 * What looks like a credential in Cloudflare's text (a hostile or broken upstream may echo the
 * request's own Authorization header): bearer values, prefixed user/account tokens (cfut_, cfat_),
 * and bare 37+ character token-like runs (classic API tokens are 40 characters, global keys 37).
 */
const CREDENTIAL_PATTERNS = [
  /\b(bearer|basic)\s+[^\s"',;]+/gi,
  /\b(authorization|x-auth-key|x-auth-email)\s*[:=]\s*[^\s"',;]+/gi,
  /\bcf[a-z]{2}_[A-Za-z0-9_-]+/g,
  /[A-Za-z0-9_-]{37,}/g,
];

/** Cloudflare's text made safe to show: credentials replaced, control characters gone, length capped. */
export function safeUpstreamText(text: string, secrets: readonly string[] = []): string {
  let safe = text;
  for (const secret of secrets) if (secret.length >= 8) safe = safe.split(secret).join('[redacted]');
  for (const pattern of CREDENTIAL_PATTERNS) safe = safe.replace(pattern, '[redacted]');
  // eslint-disable-next-line no-control-regex
  safe = safe.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return safe.length > MAX_UPSTREAM_MESSAGE_LENGTH
    ? `${safe.slice(0, MAX_UPSTREAM_MESSAGE_LENGTH - 1)}…`
    : safe;
}

/**
 * Cloudflare's own words for the browser. Some errors put the real reason one level down: DNS
 * validation in `errors[0].error_chain`, page rule validation in `messages` ("See messages").
 */
function cloudflareMessage(err: InstanceType<typeof Cloudflare.APIError>): string | undefined {
  const body = (err.error ?? {}) as CloudflareErrorBody;
  const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
  if (typeof first !== 'object' || first === null || !first.message) return undefined;
  const chain = Array.isArray(first.error_chain) ? first.error_chain : [];
  const chained = chain.map((link) => link?.message).filter((text) => typeof text === 'string' && text);
  const text =
    chained.length > 0
      ? chained.join(' ')
      : [
          String(first.message),
          ...(Array.isArray(body.messages) ? body.messages : [])
            .map((entry) => (typeof entry === 'string' ? entry : entry?.message))
            .filter((detail): detail is string => typeof detail === 'string' && detail.length > 0),
        ].join(' ');
  // The request's own token was already taken out of the answer by the transport (client.ts).
  const safe = safeUpstreamText(text);
  return safe.length > 0 ? safe : undefined;
}

/** Cloudflare's code for a Page Rules call with an account-owned token, which it never allows. */
const PAGE_RULES_ACCOUNT_TOKEN = 1011;

function firstErrorCode(err: InstanceType<typeof Cloudflare.APIError>): unknown {
  const body = (err.error ?? {}) as { errors?: { code?: unknown }[] };
  return Array.isArray(body.errors) ? body.errors[0]?.code : undefined;
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Cloudflare answered 404: the thing is not there (any more). */
export function isCloudflareNotFound(err: unknown): err is InstanceType<typeof Cloudflare.APIError> {
  return err instanceof Cloudflare.APIError && err.status === 404;
}

/**
 * Turns an error of the official SDK into the AppError the browser understands. Cloudflare's own
 * refusal of bad input stays a 4xx carrying Cloudflare's words; its outages become 502.
 */
export function cloudflareErrorToAppError(err: unknown): AppError | undefined {
  if (!(err instanceof Cloudflare.APIError)) return undefined;
  if (err instanceof Cloudflare.APIConnectionError || err.status === undefined) {
    return new AppError('UPSTREAM', 'Cloudflare is unavailable right now. Please try again.');
  }
  const message = cloudflareMessage(err);
  if (err.status === 429 && isBudgetRefusal(err.headers) && message) {
    // Guardian's own budget, said as such: its message names the budget and when it frees up.
    const seconds = Number(err.headers?.get('retry-after'));
    return new AppError('RATE_LIMITED', message, { retryAfterSeconds: seconds > 0 ? seconds : undefined });
  }
  if (err.status === 429) {
    // Cloudflare blocks for at most 5 minutes: a longer retry-after is not passed on.
    const asked = Number(err.headers?.get('retry-after'));
    const seconds =
      Number.isFinite(asked) && asked > 0 ? Math.ceil(Math.min(asked, MAX_BLOCK_MS / 1000)) : undefined;
    const when = seconds === undefined ? 'a few minutes' : waitText(seconds);
    return new AppError(
      'RATE_LIMITED',
      `Cloudflare is rate limiting this account. Please try again in ${when}.`,
      {
        retryAfterSeconds: seconds,
      },
    );
  }
  // The console's own answer (unusable, too large, too slow, lost): its message says what happened.
  if (isLocalAnswer(err.headers)) {
    return new AppError('UPSTREAM', message ?? 'Cloudflare is unavailable right now. Please try again.');
  }
  if (firstErrorCode(err) === PAGE_RULES_ACCOUNT_TOKEN) {
    // Cloudflare's words ("does not support account owned tokens") do not say what to do.
    return new AppError(
      'FORBIDDEN',
      "Cloudflare does not let this account's API token (an account-owned token) read or change page rules. To manage them here, give the account a user API token with Page Rules permission.",
    );
  }
  if (err.status === 401 || err.status === 403) {
    return new AppError(
      'FORBIDDEN',
      `Cloudflare rejected the account's API token: ${message ?? 'not authorized'}`,
    );
  }
  if (err.status === 404) return new AppError('NOT_FOUND', message ?? 'Not found at Cloudflare.');
  if (err.status >= 500)
    return new AppError('UPSTREAM', 'Cloudflare is unavailable right now. Please try again.');
  return new AppError(
    err.status === 409 ? 'CONFLICT' : 'BAD_REQUEST',
    message ?? 'Cloudflare refused the request.',
  );
}
