import { isIP } from 'node:net';
import { CHANNEL_ANSWER_MAX_LENGTH } from '@guardian/contract';
import type { ChannelRequestBody } from './channel-payloads';

/** How one post to a channel went. */
export interface PostResult {
  ok: boolean;
  /** The receiver's HTTP status; null when none came. */
  status: number | null;
  /** What it said (its status and the start of its body), or what went wrong, in words. */
  message: string;
}

/** The longest a post waits for its answer, body included. */
export const POST_TIMEOUT_MS = 10_000;
/** The most of a receiver's body that is read (the rest is not downloaded). */
const BODY_READ_MAX = 2_048;

const isLoopback = (hostname: string) => {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
};

/**
 * Why a channel may not post to `text`, or undefined when it may: https:// only, or http:// to this
 * machine when the configuration allows it (tests and the demo, whose receivers run here).
 */
export function urlRefusal(text: string, loopbackHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'The URL must be an https:// address.';
  }
  if (url.username || url.password) return 'The URL must not hold a user name or password.';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && loopbackHttp && isLoopback(url.hostname)) return undefined;
  return 'The URL must be an https:// address.';
}

/** The URL as the page shows it: its scheme and host, the rest masked but for its last 4 characters. */
export function maskUrl(text: string): string {
  const url = new URL(text);
  const rest = `${url.pathname}${url.search}`.replace(/^\/$/, '');
  return rest.length === 0 ? url.origin : `${url.origin}/****${rest.slice(-4)}`;
}

/** Reads at most BODY_READ_MAX bytes of the answer, then lets the rest go. */
async function boundedText(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_READ_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, BODY_READ_MAX).toString('utf8');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const quoted = (text: string) => {
  const line = oneLine(text);
  return line.length > CHANNEL_ANSWER_MAX_LENGTH ? `${line.slice(0, CHANNEL_ANSWER_MAX_LENGTH - 1)}…` : line;
};

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} s`;

/** What a failed fetch means, in words: the cause's code (refused, not found, reset...). */
function describeFailure(err: unknown, host: string, timeoutMs: number): string {
  const name = (err as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return `${host} did not answer within ${seconds(timeoutMs)}.`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return `${host} could not be reached: the connection was refused.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${host} could not be reached: its name was not found.`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `${host} closed the connection before it answered.`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `${host} did not answer within ${seconds(timeoutMs)}.`;
    default:
      return `${host} could not be reached: ${quoted(cause?.message ?? (err as Error).message ?? 'no reason given')}.`;
  }
}

/**
 * Posts one message to a channel's URL: at most `timeoutMs` for the whole exchange, redirects not
 * followed (a receiver that moved is a failure saying so), at most 2 KB of its answer read. Never
 * throws: the outcome is in the result.
 */
export async function postToChannel(
  url: string,
  request: ChannelRequestBody,
  timeoutMs = POST_TIMEOUT_MS,
): Promise<PostResult> {
  const host = new URL(url).host;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Guardian-Notifications',
        ...request.headers,
      },
      body: request.body,
      redirect: 'manual',
      signal,
    });
    const text = await boundedText(response);
    const said = quoted(text);
    const status = response.status;
    if (status >= 200 && status < 300)
      return { ok: true, status, message: `${host} answered ${status}${said ? `: ${said}` : ''}` };
    if (status >= 300 && status < 400)
      return {
        ok: false,
        status,
        message: `${host} answered ${status}, a redirect${response.headers.get('location') ? ` to ${quoted(response.headers.get('location')!)}` : ''}: redirects are not followed, set the URL it points to.`,
      };
    return { ok: false, status, message: `${host} answered ${status}${said ? `: ${said}` : ''}` };
  } catch (err) {
    return { ok: false, status: null, message: describeFailure(err, host, timeoutMs) };
  }
}
