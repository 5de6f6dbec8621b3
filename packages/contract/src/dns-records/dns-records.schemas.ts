import { z } from 'zod';
import {
  DEFAULT_MX_PRIORITY,
  DNS_RECORD_TYPES,
  PROXIABLE_TYPES,
  type DnsRecordType,
} from '../shared/constants';
import { zoneParamsSchema } from '../zones/zones.schemas';

/** Cloudflare's bounds: TTL 1 means automatic, otherwise 60 to 86400 seconds. */
export const DNS_TTL_AUTO = 1;
export const DNS_TTL_MIN = 60;
export const DNS_TTL_MAX = 86_400;
/** Cloudflare's longest TXT content and comment (the comment limit of the Free plan). */
export const TXT_CONTENT_MAX = 2048;
export const DNS_COMMENT_MAX = 100;
/** Cloudflare's longest record name. */
export const DNS_NAME_MAX = 255;
const PRIORITY_MAX = 65_535;

/** Why a proxied record cannot have its own TTL (Cloudflare's dashboard disables the TTL while proxied). */
export const PROXIED_TTL_MESSAGE =
  'A proxied record’s TTL is Auto (1): Cloudflare sets it. Send TTL 1, or turn Proxied off to choose a TTL.';

/** Record types that carry a priority: MX, and SRV, whose priority is the first of its four fields. */
export const PRIORITY_TYPES: readonly DnsRecordType[] = ['MX', 'SRV'];

// Underscores are allowed: DNS names such as _dmarc or _sip._tcp use them.
const HOST_LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/i;

const isIpv4 = (value: string) => z.ipv4().safeParse(value).success;
const isIpv6 = (value: string) => z.ipv6().safeParse(value).success;

export function isDnsHostname(value: string): boolean {
  const host = value.replace(/\.$/, '');
  return (
    host.length > 0 &&
    host.length <= 253 &&
    !isIpAddress(host) &&
    host.split('.').every((label) => HOST_LABEL.test(label))
  );
}

/** Whether a text is an IPv4 or IPv6 address (`1.2.3.4` reads as a host name of four numeric labels). */
export function isIpAddress(value: string): boolean {
  return isIpv4(value) || isIpv6(value);
}

/** A record name: `@` for the zone apex, a relative or full name, optionally starting with `*`. */
function isRecordName(name: string): boolean {
  if (name === '@') return true;
  const labels = name.replace(/\.$/, '').split('.');
  return (
    name.length <= DNS_NAME_MAX &&
    labels.every((label, index) => (index === 0 && label === '*') || HOST_LABEL.test(label))
  );
}

/** SRV names say the service and protocol first: _sip._tcp, _sip._tcp.example.com. */
const SRV_NAME = /^_[a-z0-9-]+\._(tcp|udp|tls)(\.|$)/i;

/**
 * An SRV record's content in this console: "weight port target", e.g. "5 5060 sip.example.com", with
 * the priority in the priority field. Cloudflare shows SRV content the same way.
 */
export function parseSrvContent(content: string): { weight: number; port: number; target: string } | null {
  const match = /^(\d{1,5})\s+(\d{1,5})\s+(\S+)$/.exec(content.trim());
  if (!match) return null;
  const weight = Number(match[1]);
  const port = Number(match[2]);
  const target = match[3]!;
  if (weight > PRIORITY_MAX || port > PRIORITY_MAX || (target !== '.' && !isDnsHostname(target))) return null;
  return { weight, port, target };
}

export function isValidTtl(ttl: number): boolean {
  return ttl === DNS_TTL_AUTO || (Number.isInteger(ttl) && ttl >= DNS_TTL_MIN && ttl <= DNS_TTL_MAX);
}

/** Why an address is not a target of these types, and what to do instead. */
const NOT_AN_ADDRESS: Record<'CNAME' | 'NS' | 'MX', string> = {
  CNAME: 'A CNAME record points to a host name, not an IP address: use an A or AAAA record for an address.',
  NS: 'An NS record names a name server by its host name, not an IP address, such as ns1.example.com.',
  MX: "An MX record names the mail server's host name, not an IP address, such as mail.example.com.",
};

/** Per-type content rule: the reason a content is wrong, or null when it is right. */
function contentProblem(type: DnsRecordType, content: string): string | null {
  switch (type) {
    case 'A':
      return isIpv4(content) ? null : 'Content must be an IPv4 address, such as 203.0.113.10.';
    case 'AAAA':
      return isIpv6(content) ? null : 'Content must be an IPv6 address, such as 2001:db8::10.';
    case 'CNAME':
    case 'NS':
    case 'MX':
      if (isIpAddress(content)) return NOT_AN_ADDRESS[type];
      return isDnsHostname(content) ? null : 'Content must be a host name, such as mail.example.com.';
    case 'TXT':
      return content.length <= TXT_CONTENT_MAX
        ? null
        : `Content must be at most ${TXT_CONTENT_MAX} characters.`;
    case 'SRV':
      return parseSrvContent(content)
        ? null
        : 'SRV content must be "weight port target", such as "5 5060 sip.example.com".';
  }
}

/**
 * The body of POST and PUT /api/cloudflare/zones/{zone_id}/dns[/{record_id}], checked per type before
 * Cloudflare sees it. The output is what is sent on: proxied forced false where Cloudflare cannot
 * proxy, priority 10 by default for MX and SRV and null for other types. A proxied record's TTL must be
 * Auto (1): Cloudflare would replace any other with Auto.
 */
export const dnsRecordInputSchema = z
  .object({
    type: z.enum(DNS_RECORD_TYPES, { error: `Type must be one of ${DNS_RECORD_TYPES.join(', ')}.` }),
    name: z
      .string({ error: 'Name is required.' })
      .trim()
      .min(1, 'Name is required.')
      .max(DNS_NAME_MAX, `Name must be at most ${DNS_NAME_MAX} characters.`)
      .refine(
        (name) => name === '' || isRecordName(name),
        'Name must be @ or a host name such as www or www.example.com.',
      ),
    // Not trimmed here: spaces may matter in a TXT value; other types are trimmed below. No type's
    // content is longer than a TXT record's.
    content: z
      .string({ error: 'Content is required.' })
      .max(TXT_CONTENT_MAX, `Content must be at most ${TXT_CONTENT_MAX} characters.`)
      .refine((value) => value.trim() !== '', 'Content is required.'),
    ttl: z
      .number({ error: 'TTL must be a number of seconds.' })
      .refine(isValidTtl, `TTL must be Auto (1) or between ${DNS_TTL_MIN} and ${DNS_TTL_MAX} seconds.`)
      .default(DNS_TTL_AUTO),
    proxied: z.boolean({ error: 'Proxied must be true or false.' }).default(false),
    priority: z
      .number({ error: `Priority must be a whole number between 0 and ${PRIORITY_MAX}.` })
      .int('Priority must be a whole number.')
      .min(0, `Priority must be between 0 and ${PRIORITY_MAX}.`)
      .max(PRIORITY_MAX, `Priority must be between 0 and ${PRIORITY_MAX}.`)
      .nullish(),
    comment: z
      .string({ error: 'Comment must be text.' })
      .trim()
      .max(DNS_COMMENT_MAX, `Comment must be at most ${DNS_COMMENT_MAX} characters.`)
      .nullish()
      .transform((comment) => comment ?? ''),
  })
  .superRefine((record, ctx) => {
    const content = record.type === 'TXT' ? record.content : record.content.trim();
    const problem = content === '' ? null : contentProblem(record.type, content);
    if (problem) ctx.addIssue({ code: 'custom', path: ['content'], message: problem });
    // Cloudflare answers a proxied record with TTL Auto whatever was sent: say so instead of losing it.
    if (PROXIABLE_TYPES.includes(record.type) && record.proxied && record.ttl !== DNS_TTL_AUTO) {
      ctx.addIssue({ code: 'custom', path: ['ttl'], message: PROXIED_TTL_MESSAGE });
    }
    if (record.type === 'SRV' && !SRV_NAME.test(record.name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'SRV names start with the service and protocol, such as _sip._tcp.',
      });
    }
  })
  .transform((record) => ({
    ...record,
    content: record.type === 'TXT' ? record.content : record.content.trim(),
    proxied: PROXIABLE_TYPES.includes(record.type) ? record.proxied : false,
    priority: PRIORITY_TYPES.includes(record.type) ? (record.priority ?? DEFAULT_MX_PRIORITY) : null,
  }));
/** What the browser sends. */
export type DnsRecordInput = z.input<typeof dnsRecordInputSchema>;
/** What the server works with after validation. */
export type ValidDnsRecordInput = z.output<typeof dnsRecordInputSchema>;

/** A DNS record as GET /api/cloudflare/zones/{zone_id}/dns lists it (read live from Cloudflare). */
export const dnsRecordSchema = z.object({
  id: z.string(),
  /** One of DNS_RECORD_TYPES, or another type created outside the console (shown, not editable). */
  type: z.string(),
  /** Fully qualified, as Cloudflare stores it. */
  name: z.string(),
  /** For SRV: "weight port target". */
  content: z.string(),
  /** Empty when there is none. */
  comment: z.string(),
  /** MX and SRV only, else null. */
  priority: z.number().nullable(),
  /** 1 means automatic. */
  ttl: z.number(),
  proxied: z.boolean(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const dnsRecordParamsSchema = zoneParamsSchema.extend({
  record_id: z.string().regex(/^[0-9a-f]{32}$/i, 'Not a DNS record id.'),
});

export function isEditableDnsType(type: string): type is DnsRecordType {
  return (DNS_RECORD_TYPES as readonly string[]).includes(type);
}
