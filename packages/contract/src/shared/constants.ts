/** Business constants from spec section 9, shared by server and web. */
export const PAGE_SIZE = {
  accounts: 20,
  banLists: 20,
  banListItems: 100,
  zones: 50,
} as const;

/** With more than this many pages, pagination shows first, last and a window with ellipses. */
export const PAGINATION_MAX_PLAIN_PAGES = 9;
export const PAGINATION_WINDOW = 2;

export const ITEM_SEARCH_DEBOUNCE_MS = 300;
export const TOAST_DURATION_MS = 3000;
export const EXPRESSION_DISPLAY_LENGTH = 70;
export const TOKEN_VISIBLE_CHARS = 4;

export const TTL_OPTIONS = [
  { value: 1, label: 'Auto' },
  { value: 60, label: '1 min' },
  { value: 300, label: '5 mins' },
  { value: 3600, label: '1 hour' },
  { value: 86400, label: '1 day' },
] as const;

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'SRV', 'NS'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];
/** Only these record types can be proxied through Cloudflare. */
export const PROXIABLE_TYPES: readonly DnsRecordType[] = ['A', 'AAAA', 'CNAME'];
export const DEFAULT_MX_PRIORITY = 10;

export const BAN_LIST_KINDS = ['ip', 'redirect', 'hostname', 'asn'] as const;
export type BanListKind = (typeof BAN_LIST_KINDS)[number];
/** Cloudflare's list-name rule. */
export const BAN_LIST_NAME_PATTERN = /^[a-z0-9_]+$/;
export const BAN_LIST_NAME_MAX = 50;

export const REDIRECT_CODES = [301, 302] as const;
export const NEW_PAGE_RULE_PRIORITY = 1;

/** Drag constants of spec section 9 (they are @hello-pangea/dnd's defaults). */
export const DRAG = {
  longPressMs: 120,
  mouseThresholdPx: 5,
  autoScrollStartFraction: 0.25,
  autoScrollMaxFraction: 0.05,
  autoScrollMaxPxPerStep: 28,
  dropAnimationMinS: 0.33,
  dropAnimationMaxS: 0.55,
} as const;

/**
 * The answer header in which the server says what it found at Cloudflare after a write's answer was
 * lost ("Cloudflare's answer was lost; Guardian checked: the record was created."); the web shows it.
 */
export const OUTCOME_HEADER = 'guardian-outcome';
