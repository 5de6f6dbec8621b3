import { SERVER_BAN_SECONDS_MAX } from '@guardian/contract';
import { z } from 'zod';
import { AnswerTooLarge, readCapped } from '../../../cloudflare';

/** The most a decisions stream answer may weigh: ~40,000 decisions. A larger one is refused, unread. */
export const LAPI_ANSWER_MAX_BYTES = 8 * 1024 * 1024;
/** The longest a pull waits for the Local API, its answer read to the end included. */
export const LAPI_TIMEOUT_MS = 20_000;
/** Scopes Guardian mirrors: an address, a CIDR. Cloudflare's IP lists hold both. */
const SCOPES = 'ip,range';

/** A ban decision as the stream gives it (crowdsec's `models.Decision`), its fields bounded. */
const decisionSchema = z.object({
  id: z.number().int().positive(),
  type: z.string().max(50),
  scope: z.string().max(50),
  value: z.string().max(64),
  /** A Go duration: `1h59m58.97s`, negative once expired. */
  duration: z.string().max(40),
  scenario: z.string().max(4_096),
  origin: z.string().max(100).optional(),
});
export type LapiDecision = z.infer<typeof decisionSchema>;

const streamSchema = z.object({
  new: z.array(z.unknown()).nullable().optional(),
  deleted: z.array(z.unknown()).nullable().optional(),
});

export interface DecisionStream {
  /** Ban decisions of scope Ip or Range, with their seconds left (> 0). */
  fresh: (LapiDecision & { seconds: number })[];
  /** Ids and values of decisions deleted or expired. */
  removed: LapiDecision[];
  /** Entries skipped: another type (captcha), another scope (country, AS), malformed. */
  skipped: number;
}

/** Why a pull failed, in words for the person (shown on the Integrations screen). */
export class LapiError extends Error {}

const GO_DURATION = /^(-?)((?:\d+(?:\.\d+)?(?:h|m|s|ms|us|µs|ns))+)$/;
const UNIT_SECONDS: Record<string, number> = {
  h: 3600,
  m: 60,
  s: 1,
  ms: 1e-3,
  us: 1e-6,
  µs: 1e-6,
  ns: 1e-9,
};

/** Whole seconds of a Go duration (`1h59m58.9s` -> 7198); negative when expired, NaN when malformed. */
export function goDurationSeconds(text: string): number {
  const match = GO_DURATION.exec(text);
  if (!match) return Number.NaN;
  let seconds = 0;
  for (const [, amount, unit] of match[2]!.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g))
    seconds += Number(amount) * UNIT_SECONDS[unit!]!;
  return Math.floor((match[1] ? -1 : 1) * seconds);
}

const isMirrored = (decision: LapiDecision) =>
  decision.type.toLowerCase() === 'ban' && ['ip', 'range'].includes(decision.scope.toLowerCase());

/** Sorts a stream's answer into fresh bans and removed decisions; anything else is counted, not kept. */
export function readStream(answer: unknown): DecisionStream {
  const stream = streamSchema.safeParse(answer);
  if (!stream.success)
    throw new LapiError('The Local API answered something that is not a decisions stream.');
  const result: DecisionStream = { fresh: [], removed: [], skipped: 0 };
  for (const entry of stream.data.new ?? []) {
    const decision = decisionSchema.safeParse(entry);
    const seconds = decision.success ? goDurationSeconds(decision.data.duration) : Number.NaN;
    if (!decision.success || !isMirrored(decision.data) || !(seconds > 0)) result.skipped += 1;
    else result.fresh.push({ ...decision.data, seconds: Math.min(seconds, SERVER_BAN_SECONDS_MAX) });
  }
  for (const entry of stream.data.deleted ?? []) {
    const decision = decisionSchema.safeParse(entry);
    if (!decision.success || !isMirrored(decision.data)) result.skipped += 1;
    else result.removed.push(decision.data);
  }
  return result;
}

/**
 * One read of a Local API's decisions stream as a bouncer (`GET /v1/decisions/stream`, `X-Api-Key`):
 * with `startup` every active decision, else what changed since this bouncer's last pull (the Local
 * API keeps that per bouncer). Bounded: the answer's size, the whole call's time (its body included),
 * no redirects; whatever it holds is checked field by field.
 */
export async function pullDecisions(
  lapiUrl: string,
  bouncerKey: string,
  startup: boolean,
  {
    signal,
    timeoutMs = LAPI_TIMEOUT_MS,
    maxBytes = LAPI_ANSWER_MAX_BYTES,
  }: { signal?: AbortSignal; timeoutMs?: number; maxBytes?: number } = {},
): Promise<DecisionStream> {
  const url = new URL('v1/decisions/stream', lapiUrl.endsWith('/') ? lapiUrl : `${lapiUrl}/`);
  url.searchParams.set('startup', String(startup));
  url.searchParams.set('scopes', SCOPES);
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let body: Buffer;
  try {
    const response = await fetch(url, {
      headers: { 'X-Api-Key': bouncerKey, Accept: 'application/json', 'User-Agent': 'guardian-bouncer/1' },
      redirect: 'error',
      signal: both,
    });
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => undefined);
      throw new LapiError(
        `The Local API refused the bouncer key (${response.status}): add a bouncer with cscli bouncers add and enter its key.`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new LapiError(`The Local API answered ${response.status}.`);
    }
    body = await readCapped(response, maxBytes);
  } catch (err) {
    signal?.throwIfAborted();
    if (err instanceof LapiError) throw err;
    if (err instanceof AnswerTooLarge)
      throw new LapiError(
        `The Local API's answer is larger than ${(maxBytes / 1024 / 1024).toFixed(1)} MiB: Guardian did not read it.`,
      );
    if (timeout.aborted)
      throw new LapiError(`The Local API did not answer within ${timeoutMs / 1000} seconds.`);
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new LapiError(`Could not reach the Local API at ${url.origin}: ${cause.slice(0, 200)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new LapiError('The Local API answered something that is not JSON.');
  }
  return readStream(parsed);
}
