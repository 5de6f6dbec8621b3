import Cloudflare from 'cloudflare';
import { AppError } from '../errors';

interface CloudflareErrorBody {
  errors?: { message?: unknown; error_chain?: { message?: unknown }[] }[];
  messages?: ({ message?: unknown } | string)[];
}

/**
 * Cloudflare's own words for the browser. Some errors put the real reason one level down: DNS
 * validation in `errors[0].error_chain`, page rule validation in `messages` ("See messages").
 */
function cloudflareMessage(err: InstanceType<typeof Cloudflare.APIError>): string | undefined {
  const body = (err.error ?? {}) as CloudflareErrorBody;
  const first = body.errors?.[0];
  if (!first?.message) return undefined;
  const chained = first.error_chain?.map((link) => link.message).filter(Boolean);
  if (chained && chained.length > 0) return chained.join(' ');
  const details = (body.messages ?? [])
    .map((entry) => (typeof entry === 'string' ? entry : entry.message))
    .filter((text): text is string => typeof text === 'string' && text.length > 0);
  return details.length > 0 ? `${String(first.message)} ${details.join(' ')}` : String(first.message);
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
  if (err.status === 401 || err.status === 403) {
    return new AppError(
      'FORBIDDEN',
      `Cloudflare rejected the account's API token: ${message ?? 'not authorized'}`,
    );
  }
  if (err.status === 429) {
    const retryAfter = Number(err.headers?.get('retry-after'));
    return new AppError(
      'RATE_LIMITED',
      'Cloudflare is rate limiting this account. Please try again in a few minutes.',
      {
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : undefined,
      },
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
