import {
  DEFAULT_MX_PRIORITY,
  DNS_TTL_AUTO,
  PRIORITY_TYPES,
  PROXIABLE_TYPES,
  TTL_OPTIONS,
  isEditableDnsType,
  type DnsRecord,
  type DnsRecordInput,
  type DnsRecordType,
} from '@guardian/contract';

/** What the add/edit dialog holds; priority stays text until it is sent. */
export interface DnsRecordForm {
  type: DnsRecordType;
  name: string;
  content: string;
  ttl: number;
  proxied: boolean;
  priority: string;
  comment: string;
}

/** Spec section 9: type A, TTL 1 (Auto), proxied; MX priority 10. */
export const NEW_RECORD_FORM: DnsRecordForm = {
  type: 'A',
  name: '',
  content: '',
  ttl: DNS_TTL_AUTO,
  proxied: true,
  priority: String(DEFAULT_MX_PRIORITY),
  comment: '',
};

/** A record of one of the types the dialog edits (Cloudflare may hold others, created elsewhere). */
export type EditableDnsRecord = DnsRecord & { type: DnsRecordType };

export function editableRecord(record: DnsRecord): EditableDnsRecord | null {
  return isEditableDnsType(record.type) ? { ...record, type: record.type } : null;
}

export function formOf(record: EditableDnsRecord): DnsRecordForm {
  return {
    type: record.type,
    name: record.name,
    content: record.content,
    ttl: record.ttl,
    proxied: record.proxied,
    priority: String(record.priority ?? DEFAULT_MX_PRIORITY),
    comment: record.comment,
  };
}

export const isProxiable = (type: DnsRecordType) => PROXIABLE_TYPES.includes(type);
export const hasPriority = (type: DnsRecordType) => PRIORITY_TYPES.includes(type);

/**
 * The priority as typed, as a number; NaN when it is not one ('abc', '', '15x'), which the contract's
 * schema refuses. Spec section 5 took such text as 0 and saved it silently (issue 35 item 15).
 */
export function parsePriority(text: string): number {
  const trimmed = text.trim();
  return /^[+-]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** Whether the record will be proxied: then Cloudflare sets its TTL (Auto) and the form offers none. */
export const isProxied = (form: Pick<DnsRecordForm, 'type' | 'proxied'>) =>
  isProxiable(form.type) && form.proxied;

/**
 * The body sent to the server: proxied only where Cloudflare can proxy, TTL Auto while proxied (the
 * TTL chosen before stays in the form for when Proxied is turned off), priority only where it applies.
 */
export function toRecordInput(form: DnsRecordForm): DnsRecordInput {
  const proxied = isProxied(form);
  return {
    type: form.type,
    name: form.name,
    content: form.content,
    ttl: proxied ? DNS_TTL_AUTO : form.ttl,
    proxied,
    priority: hasPriority(form.type) ? parsePriority(form.priority) : null,
    comment: form.comment,
  };
}

/** The TTL choices; a record saved elsewhere with another TTL keeps it as an extra choice. */
export function ttlChoices(current: number): { value: number; label: string }[] {
  const choices: { value: number; label: string }[] = [...TTL_OPTIONS];
  if (!choices.some((choice) => choice.value === current))
    choices.push({ value: current, label: `${current} seconds` });
  return choices;
}

/** Spec section 9: a TTL of 1 shows as Auto, otherwise the seconds. */
export function ttlLabel(ttl: number): string {
  return ttl === DNS_TTL_AUTO ? 'Auto' : String(ttl);
}

export const CONTENT_PLACEHOLDERS: Record<DnsRecordType, string> = {
  A: '203.0.113.10',
  AAAA: '2001:db8::10',
  CNAME: 'target.example.com',
  TXT: 'v=spf1 include:_spf.example.com -all',
  MX: 'mail.example.com',
  SRV: '5 5060 sip.example.com',
  NS: 'ns1.example.com',
};
