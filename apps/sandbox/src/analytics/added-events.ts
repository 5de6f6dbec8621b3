import { isIP } from 'node:net';
import { isRecord } from '../is-record';
import type { SandboxState } from '../state';
import { hash, type Batch } from './batches';
import { securityFields } from './traffic';

/** At most this many events per call of the control API, and kept in all (the oldest go first). */
export const ADDED_EVENTS_PER_CALL = 1000;
export const ADDED_EVENTS_KEPT = 10_000;
const MAX_COUNT = 10_000;
const MAX_AGE_MS = 31 * 86_400_000;

/** Actions and sources as Cloudflare's security events name them. */
export const EVENT_ACTIONS = [
  'block',
  'challenge',
  'jschallenge',
  'managed_challenge',
  'log',
  'skip',
  'allow',
  'connection_close',
] as const;
export const EVENT_SOURCES = [
  'firewallCustom',
  'firewallManaged',
  'ratelimit',
  'securitylevel',
  'ip',
  'asn',
  'country',
  'uablock',
  'bic',
  'hot',
  'l7ddos',
  'validation',
  'botFight',
  'botManagement',
] as const;

/** A security event added through the control API; what it leaves out takes a plain default. */
export interface SecurityEventInput {
  zoneId: string;
  clientIP: string;
  action?: string;
  source?: string;
  /** ISO 8601; default now. At most 31 days back, not in the future. */
  datetime?: string;
  /** The same event this many times (1 to 10,000), e.g. a burst from one source. */
  count?: number;
  clientAsn?: string;
  clientASNDescription?: string;
  clientCountryName?: string;
  clientRequestHTTPHost?: string;
  clientRequestHTTPMethodName?: string;
  clientRequestPath?: string;
  clientRequestQuery?: string;
  ruleId?: string;
  rulesetId?: string;
  description?: string;
  userAgent?: string;
}

const TEXT_FIELDS = [
  'clientAsn',
  'clientASNDescription',
  'clientCountryName',
  'clientRequestHTTPHost',
  'clientRequestHTTPMethodName',
  'clientRequestPath',
  'clientRequestQuery',
  'ruleId',
  'rulesetId',
  'description',
  'userAgent',
] as const;

/**
 * Security events added by tests and the demo (a fresh attack), counted by every analytics query at
 * once. Bounded: the newest ADDED_EVENTS_KEPT entries are kept.
 */
export class AddedEvents {
  private batches: Batch[] = [];
  private sequence = 0;

  constructor(private readonly state: SandboxState) {}

  /** Validates every input first: one bad input adds nothing. Returns how many entries were added. */
  add(inputs: unknown, now = Date.now()): number | string {
    if (!Array.isArray(inputs)) return 'events must be a list';
    if (inputs.length === 0 || inputs.length > ADDED_EVENTS_PER_CALL)
      return `between 1 and ${ADDED_EVENTS_PER_CALL} events at a time`;
    const parsed: Batch[] = [];
    for (const [index, input] of inputs.entries()) {
      const batch = this.parse(input, now);
      if (typeof batch === 'string') return `events[${index}]: ${batch}`;
      parsed.push(batch);
    }
    this.batches.push(...parsed);
    if (this.batches.length > ADDED_EVENTS_KEPT) this.batches = this.batches.slice(-ADDED_EVENTS_KEPT);
    return parsed.length;
  }

  /** The zone's added events with a time inside [lo, hi]. */
  of(zoneTag: string, lo: number, hi: number): Batch[] {
    return this.batches.filter(
      (batch) => batch.zoneTag === zoneTag && batch.start >= lo && batch.start <= hi,
    );
  }

  clear(): void {
    this.batches = [];
  }

  private parse(input: unknown, now: number): Batch | string {
    if (!isRecord(input)) return 'an event is an object';
    const zone = typeof input.zoneId === 'string' ? this.state.zones.get(input.zoneId) : undefined;
    if (!zone) return 'zoneId must name an existing zone';
    if (typeof input.clientIP !== 'string' || isIP(input.clientIP) === 0)
      return 'clientIP must be an IPv4 or IPv6 address';
    const action = input.action ?? 'block';
    if (!EVENT_ACTIONS.includes(action as (typeof EVENT_ACTIONS)[number]))
      return `action must be one of ${EVENT_ACTIONS.join(', ')}`;
    const source = input.source ?? 'firewallCustom';
    if (!EVENT_SOURCES.includes(source as (typeof EVENT_SOURCES)[number]))
      return `source must be one of ${EVENT_SOURCES.join(', ')}`;
    const at = input.datetime === undefined ? now : Date.parse(String(input.datetime));
    if (Number.isNaN(at) || at > now + 1000 || at < now - MAX_AGE_MS)
      return 'datetime must be an ISO 8601 time within the last 31 days';
    const count = input.count ?? 1;
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_COUNT)
      return `count must be an integer from 1 to ${MAX_COUNT}`;
    const text: Partial<Record<(typeof TEXT_FIELDS)[number], string>> = {};
    for (const field of TEXT_FIELDS) {
      const value = input[field];
      if (value === undefined) continue;
      if (typeof value !== 'string' || value.length > 256)
        return `${field} must be text of at most 256 characters`;
      text[field] = value;
    }
    const fields = securityFields({
      action: action as string,
      source: source as string,
      origin: {
        ip: input.clientIP,
        asn: text.clientAsn ?? '0',
        asnDescription: text.clientASNDescription ?? '',
        country: text.clientCountryName ?? 'XX',
      },
      host: text.clientRequestHTTPHost ?? zone.name,
      method: text.clientRequestHTTPMethodName ?? 'GET',
      path: text.clientRequestPath ?? '/',
      query: text.clientRequestQuery ?? '',
      ruleId: text.ruleId ?? '',
      rulesetId: text.rulesetId ?? '',
      description: text.description ?? '',
      userAgent: text.userAgent ?? '',
    });
    return {
      zoneTag: zone.id,
      start: at,
      spanMs: 0,
      count: count as number,
      fields,
      totals: { sampleInterval: count as number },
      key: hash(`added:${this.sequence++}`),
    };
  }
}
