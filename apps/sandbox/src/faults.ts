import { Readable } from 'node:stream';
import { newId } from './ids';

export type FaultStatus = 429 | 500 | 502 | 503;

/**
 * A hostile Cloudflare, for testing what a client trusts:
 * - `oversized`: a valid envelope of `bytes` bytes (default 64 MiB), streamed, never held in memory;
 * - `endless`: every page of a list claims a million pages (or a next cursor) and holds fresh ids;
 * - `repeating`: every page is the first one again, pointing on to the same page or cursor;
 * - `mistyped`: the real answer with every field of `result` of the wrong JSON type;
 * - `truncated`: the real answer cut in half (a complete HTTP answer of broken JSON);
 * - `slow`: the real answer, trickled out over `trickleMs`;
 * - `echo`: a 400 whose long message echoes the request's Authorization header.
 */
export type HostileAnswer =
  'oversized' | 'endless' | 'repeating' | 'mistyped' | 'truncated' | 'slow' | 'echo';

export const HOSTILE_ANSWERS: readonly HostileAnswer[] = [
  'oversized',
  'endless',
  'repeating',
  'mistyped',
  'truncated',
  'slow',
  'echo',
];

/** What to break, for which calls. A fault with no `times` and no `fraction` hits every matching call. */
export interface FaultSpec {
  /** Request path after /client/v4: a string matches that path and everything under it; or a RegExp. */
  path?: string | RegExp;
  method?: string;
  /** Answer with this status (429 carries `retry-after`) instead of running the call. */
  status?: FaultStatus;
  /** How many calls to affect; the fault is removed after the last one. */
  times?: number;
  /** Probability (0..1) that a matching call is affected. */
  fraction?: number;
  /** Delay before answering (combined with status or drop, or alone). */
  latencyMs?: number;
  /** Destroy the connection without answering. */
  drop?: boolean;
  retryAfterSeconds?: number;
  /** Answer with hostile data instead of the real answer (see HostileAnswer). */
  answer?: HostileAnswer;
  /** `oversized`: the answer's size in bytes. */
  bytes?: number;
  /** `slow`: how long the answer's body takes to arrive (default 60,000 ms). */
  trickleMs?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Calls still to affect; undefined means unlimited. */
  remaining?: number;
}

export interface FaultOutcome {
  latencyMs: number;
  status?: FaultStatus;
  drop?: boolean;
  retryAfterSeconds?: number;
  answer?: HostileAnswer;
  bytes?: number;
  trickleMs?: number;
}

const STATUSES: readonly number[] = [429, 500, 502, 503];

export function validateFault(spec: FaultSpec): string | null {
  if (spec.status === undefined && spec.latencyMs === undefined && !spec.drop && !spec.answer) {
    return 'a fault needs a status, a latencyMs, drop or an answer';
  }
  if (spec.answer !== undefined && !HOSTILE_ANSWERS.includes(spec.answer))
    return `answer must be one of ${HOSTILE_ANSWERS.join(', ')}`;
  if (spec.bytes !== undefined && (!Number.isInteger(spec.bytes) || spec.bytes < 1))
    return 'bytes must be a positive integer';
  if (spec.trickleMs !== undefined && !(spec.trickleMs >= 0)) return 'trickleMs must be zero or more';
  if (spec.status !== undefined && !STATUSES.includes(spec.status))
    return 'status must be 429, 500, 502 or 503';
  if (spec.times !== undefined && (!Number.isInteger(spec.times) || spec.times < 1))
    return 'times must be a positive integer';
  if (spec.fraction !== undefined && !(spec.fraction >= 0 && spec.fraction <= 1))
    return 'fraction must be between 0 and 1';
  if (spec.latencyMs !== undefined && !(spec.latencyMs >= 0)) return 'latencyMs must be zero or more';
  return null;
}

/** A small seedable PRNG (mulberry32), so `fraction` faults can be made reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pathMatches(pattern: string | RegExp | undefined, path: string): boolean {
  if (pattern === undefined) return true;
  if (typeof pattern !== 'string') return pattern.test(path);
  const prefix = pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
  return path === prefix || path.startsWith(`${prefix}/`);
}

export class FaultInjector {
  private faults: Fault[] = [];

  constructor(private readonly random: () => number) {}

  add(spec: FaultSpec): Fault {
    const problem = validateFault(spec);
    if (problem) throw new Error(problem);
    const fault: Fault = { ...spec, id: newId() };
    if (spec.times !== undefined) fault.remaining = spec.times;
    this.faults.push(fault);
    return fault;
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length !== before;
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return [...this.faults];
  }

  /** The faults this call triggers: latencies add up; the first status or drop wins. */
  decide(method: string, path: string): FaultOutcome | null {
    if (this.faults.length === 0) return null;
    let outcome: FaultOutcome | null = null;
    for (const fault of [...this.faults]) {
      if (fault.method !== undefined && fault.method.toUpperCase() !== method) continue;
      if (!pathMatches(fault.path, path)) continue;
      if (fault.fraction !== undefined && this.random() >= fault.fraction) continue;
      if (fault.remaining !== undefined) {
        fault.remaining--;
        if (fault.remaining <= 0) this.remove(fault.id);
      }
      outcome ??= { latencyMs: 0 };
      outcome.latencyMs += fault.latencyMs ?? 0;
      if (fault.drop || fault.status !== undefined || fault.answer !== undefined) {
        if (fault.drop) outcome.drop = true;
        else if (fault.status !== undefined) outcome.status = fault.status;
        else {
          outcome.answer = fault.answer;
          if (fault.bytes !== undefined) outcome.bytes = fault.bytes;
          if (fault.trickleMs !== undefined) outcome.trickleMs = fault.trickleMs;
        }
        if (fault.retryAfterSeconds !== undefined) outcome.retryAfterSeconds = fault.retryAfterSeconds;
        break;
      }
    }
    return outcome;
  }
}

// ------------------------------------------------------------------ hostile answers

/** `endless` hands out fresh ids and cursors: a counter shared by every answer. */
let endlessCounter = 0;

/** A streamed, valid Cloudflare envelope of about `bytes` bytes whose result is an array of padding. */
export function oversizedAnswer(bytes = 64 * 1024 * 1024): Readable {
  const head = '{"success":true,"errors":[],"messages":[],"result":[';
  const tail = ']}';
  const entry = (index: number) =>
    `${index === 0 ? '' : ','}{"id":"pad${index}","name":"${'x'.repeat(1000)}"}`;
  let sent = 0;
  let index = 0;
  return new Readable({
    read() {
      if (sent === 0) {
        sent += head.length;
        this.push(head);
        return;
      }
      if (sent >= bytes) {
        this.push(tail);
        this.push(null);
        return;
      }
      let chunk = '';
      while (chunk.length < 64 * 1024 && sent + chunk.length < bytes) chunk += entry(index++);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** The query `endless` and `repeating` serve instead: always the first page, whatever was asked. */
export function hostileQuery(answer: HostileAnswer, query: Record<string, unknown>): Record<string, unknown> {
  if (answer !== 'endless' && answer !== 'repeating') return query;
  const { page: _page, cursor: _cursor, ...first } = query;
  return first;
}

/** The same JSON with every field of the wrong type: strings become numbers, everything else strings. */
function mistype(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mistype);
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? 12345 : 'mistyped';
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, typeof field === 'string' ? 12345 : 'mistyped']),
  );
}

interface Envelope {
  result?: unknown;
  result_info?: Record<string, unknown>;
  errors?: unknown[];
  messages?: unknown[];
}

/**
 * The hostile form of a real (JSON, 2xx) answer; `echo` builds its own. `page` is the page the
 * request asked for (the handler was given the first one).
 */
export function hostilePayload(
  answer: HostileAnswer,
  payload: string,
  request: { authorization?: string; page?: unknown },
): string {
  if (answer === 'truncated') return payload.slice(0, Math.floor(payload.length / 2));
  if (answer === 'echo') {
    const message = `Invalid request headers: got Authorization: ${request.authorization ?? ''} ${'and more '.repeat(2000)}`;
    return JSON.stringify({ success: false, errors: [{ code: 6003, message }], messages: [], result: null });
  }
  let body: Envelope;
  try {
    body = JSON.parse(payload) as Envelope;
  } catch {
    return payload;
  }
  if (answer === 'mistyped') return JSON.stringify({ ...body, result: mistype(body.result) });
  if (answer !== 'endless' && answer !== 'repeating') return payload;
  const info = body.result_info ?? {};
  const cursorPaged = 'cursors' in info;
  const fresh = ++endlessCounter;
  const result =
    answer === 'endless' && Array.isArray(body.result)
      ? body.result.map((item: unknown) =>
          typeof item === 'object' && item !== null && 'id' in item
            ? { ...item, id: `${String(item.id)}-${fresh}` }
            : item,
        )
      : body.result;
  const resultInfo = cursorPaged
    ? { ...info, cursors: { after: answer === 'endless' ? `endless${fresh}` : 'repeating' } }
    : {
        ...info,
        page: Number(request.page ?? 1) || 1,
        total_pages: 1_000_000,
        total_count: 1_000_000 * Number(info.per_page ?? 1),
      };
  return JSON.stringify({ ...body, result, result_info: resultInfo });
}

/** The payload sent in about 20 pieces spread over `trickleMs`. */
export function trickle(payload: string, trickleMs = 60_000): Readable {
  const pieces = 20;
  const size = Math.max(1, Math.ceil(payload.length / pieces));
  let offset = 0;
  const stream = new Readable({ read() {} });
  const timer = setInterval(() => {
    if (stream.destroyed) return clearInterval(timer);
    stream.push(payload.slice(offset, offset + size));
    offset += size;
    if (offset >= payload.length) {
      clearInterval(timer);
      stream.push(null);
    }
  }, trickleMs / pieces);
  stream.on('close', () => clearInterval(timer));
  return stream;
}
