import { newId } from './ids';

export type FaultStatus = 429 | 500 | 502 | 503;

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
}

const STATUSES: readonly number[] = [429, 500, 502, 503];

export function validateFault(spec: FaultSpec): string | null {
  if (spec.status === undefined && spec.latencyMs === undefined && !spec.drop) {
    return 'a fault needs a status, a latencyMs or drop';
  }
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
      if (fault.drop || fault.status !== undefined) {
        if (fault.drop) outcome.drop = true;
        else outcome.status = fault.status;
        if (fault.retryAfterSeconds !== undefined) outcome.retryAfterSeconds = fault.retryAfterSeconds;
        break;
      }
    }
    return outcome;
  }
}
