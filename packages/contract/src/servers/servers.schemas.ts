import { z } from 'zod';
import { parseIpSearch } from '../ip-address/ip-address';
import { keysOf } from '../shared/closed-set';
import { commaSeparatedIds, LOOKUP_ID_MAX } from '../shared/ids';
import { userParamsSchema } from '../users/users.schemas';
import LABELS from '../shared/labels.en.json';

/**
 * Server Management (issue 39): the machines that feed bans (fail2ban, CrowdSec, a SOAR playbook, a
 * script), each with its own key, held to its group's policy.
 */
export const SERVER_INTEGRATION_LABELS = LABELS.serverIntegrations;
export type ServerIntegration = keyof typeof SERVER_INTEGRATION_LABELS;
export const SERVER_INTEGRATIONS = keysOf(SERVER_INTEGRATION_LABELS);

/** active: heard from within its expected interval; silent: not; revoked: its key is refused. */
export const SERVER_STATES = ['active', 'silent', 'revoked'] as const;
export type ServerState = (typeof SERVER_STATES)[number];

/** Every server key starts so, which tells it from a session token and a person's API key: `gs_<id>_<secret>`. */
export const SERVER_KEY_PREFIX = 'gs_';

export const MAX_SERVER_GROUPS_PER_USER = 50;
export const MAX_SERVERS_PER_USER = 500;
/** Target lists of one group (across the person's Cloudflare accounts). */
export const MAX_GROUP_LISTS = 50;
/** Addresses and CIDRs of one group's allowlist. */
export const MAX_GROUP_ALLOWLIST = 200;
export const COMMENT_TEMPLATE_MAX = 200;
/** Longest ban a group may allow: Guardian's item expiry bound (5 years). */
export const SERVER_BAN_SECONDS_MAX = 5 * 366 * 86_400;
export const SERVER_CEILING_MAX = 100_000;
/** The comment a group's bans get unless it says otherwise. */
export const DEFAULT_COMMENT_TEMPLATE = '{server}: {jail} {reason}';
/** Where a person's Cloudflare IP ranges preset comes from (https://www.cloudflare.com/ips/). */
export const CLOUDFLARE_IP_RANGES = [
  '173.245.48.0/20',
  '103.21.244.0/22',
  '103.22.200.0/22',
  '103.31.4.0/22',
  '141.101.64.0/18',
  '108.162.192.0/18',
  '190.93.240.0/20',
  '188.114.96.0/20',
  '197.234.240.0/22',
  '198.41.128.0/17',
  '162.158.0.0/15',
  '104.16.0.0/13',
  '104.24.0.0/14',
  '172.64.0.0/13',
  '131.0.72.0/22',
  '2400:cb00::/32',
  '2606:4700::/32',
  '2803:f800::/32',
  '2405:b500::/32',
  '2405:8100::/32',
  '2a06:98c0::/29',
  '2c0f:f248::/32',
] as const;

const PRINTABLE = /^[^\p{C}\p{Zl}\p{Zp}]*$/u;

const nameSchema = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(60, 'Name must be at most 60 characters.')
  // The name is the audit trail's and the items' actor: no line breaks or control characters.
  .regex(PRINTABLE, 'The name may hold only printable characters (no line breaks or control characters).');

const secondsSchema = (what: string) =>
  z
    .number({ error: `${what} must be a number of seconds.` })
    .int(`${what} must be a whole number of seconds.`)
    .min(60, `${what} must be at least 60 seconds.`)
    .max(SERVER_BAN_SECONDS_MAX, `${what} must be at most 5 years.`);

/** The address or CIDR of an allowlist entry, as written (any prefix: /0 included). */
const allowEntrySchema = z
  .string()
  .trim()
  .min(1, 'An allowlist entry is empty.')
  .max(64, 'An allowlist entry is too long.')
  .refine((text) => !('error' in parseIpSearch(text)), {
    error: (issue) => `"${String(issue.input)}" is not an IP address or CIDR.`,
  });

const groupFields = {
  name: nameSchema,
  /** Cloudflare list ids (ip lists of the person's accounts) its bans go to. */
  list_ids: z
    .array(z.string().trim().min(1).max(LOOKUP_ID_MAX, 'A list id is too long.'), {
      error: 'Lists must be a list of list ids.',
    })
    .min(1, 'Choose at least one list for the bans.')
    .max(MAX_GROUP_LISTS, `Choose at most ${MAX_GROUP_LISTS} lists.`),
  /** How long a ban lasts when the server does not say (null: until removed). */
  default_duration_seconds: secondsSchema('The default expiry').nullable().default(86_400),
  /** The longest ban a server may ask for (null: no limit); a longer one is cut to it. */
  max_duration_seconds: secondsSchema('The longest expiry')
    .nullable()
    .default(30 * 86_400),
  /** The items' comment: {server}, {jail} (or scenario) and {reason} are filled in. */
  comment_template: z
    .string()
    .trim()
    .max(COMMENT_TEMPLATE_MAX, `The comment template must be at most ${COMMENT_TEMPLATE_MAX} characters.`)
    .regex(PRINTABLE, 'The comment template may hold only printable characters.')
    .default(DEFAULT_COMMENT_TEMPLATE),
  /** Addresses and CIDRs never banned (a person's office ranges, Cloudflare's own). */
  allowlist: z
    .array(allowEntrySchema, { error: 'The allowlist must be a list of addresses and CIDRs.' })
    .max(MAX_GROUP_ALLOWLIST, `The allowlist holds at most ${MAX_GROUP_ALLOWLIST} entries.`)
    .default([]),
  /** Bans one server may send in an hour; past it, its bans are refused. */
  ceiling_per_hour: z
    .number({ error: 'The ceiling must be a number of bans per hour.' })
    .int('The ceiling must be a whole number.')
    .min(1, 'The ceiling must be at least 1 ban an hour.')
    .max(
      SERVER_CEILING_MAX,
      `The ceiling must be at most ${SERVER_CEILING_MAX.toLocaleString('en-US')} bans an hour.`,
    )
    .default(600),
  /** Bans wait, pending, until a person approves them (or rejects them). */
  review: z.boolean({ error: 'Review must be true or false.' }).default(false),
};

const durationsInOrder = (group: {
  default_duration_seconds: number | null;
  max_duration_seconds: number | null;
}) =>
  group.max_duration_seconds === null ||
  (group.default_duration_seconds !== null && group.default_duration_seconds <= group.max_duration_seconds);

export const serverGroupRequestSchema = z.object(groupFields).refine(durationsInOrder, {
  error: 'The default expiry must be set and no longer than the longest expiry allowed.',
  path: ['default_duration_seconds'],
});
export type ServerGroupRequest = z.input<typeof serverGroupRequestSchema>;

export const serverGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  lists: z.array(z.object({ list_id: z.string(), list_name: z.string(), account_name: z.string() })),
  default_duration_seconds: z.number().nullable(),
  max_duration_seconds: z.number().nullable(),
  comment_template: z.string(),
  allowlist: z.array(z.string()),
  ceiling_per_hour: z.number(),
  review: z.boolean(),
  /** Servers in the group (revoked ones included). */
  servers: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ServerGroup = z.infer<typeof serverGroupSchema>;

export const serverGroupParamsSchema = z.object({
  group_id: z.coerce
    .number({ error: 'The group id must be a number.' })
    .int('The group id must be a number.')
    .positive('The group id must be a number.'),
});

export const createServerRequestSchema = z.object({
  name: nameSchema,
  group_id: z.number({ error: 'Choose a group.' }).int('Choose a group.').positive('Choose a group.'),
  integration: z.enum(SERVER_INTEGRATIONS, {
    error: `The integration must be one of ${SERVER_INTEGRATIONS.join(', ')}.`,
  }),
  /** After this long without a call the server shows as silent. */
  expected_interval_minutes: z
    .number({ error: 'The expected interval must be a number of minutes.' })
    .int('The expected interval must be a whole number of minutes.')
    .min(1, 'The expected interval must be at least 1 minute.')
    .max(10_080, 'The expected interval must be at most 7 days (10,080 minutes).')
    .default(60),
});
export type CreateServerRequest = z.input<typeof createServerRequestSchema>;

const countsSchema = z.object({ day: z.number(), week: z.number() });

export const serverSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  group_id: z.number().int(),
  group_name: z.string(),
  integration: z.enum(SERVER_INTEGRATIONS),
  /** What the integration reported of itself (`fail2ban 1.0.2 / guardian 2`). */
  version: z.string().nullable(),
  expected_interval_minutes: z.number(),
  key_last_four: z.string(),
  state: z.enum(SERVER_STATES),
  last_seen_at: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  /** Bans and unbans it sent, and its calls refused: in the last 24 hours and 7 days. */
  bans: countsSchema,
  unbans: countsSchema,
  refused: countsSchema,
  /** Its latest refused call, and why. */
  last_refusal: z.object({ at: z.string(), reason: z.string() }).nullable(),
  /** Its bans waiting for a person's review. */
  in_review: z.number(),
  /** Whether it has a signing secret for the signed webhook (shown only when made). */
  has_signing_secret: z.boolean(),
});
export type Server = z.infer<typeof serverSchema>;

/** The hours of a server's small chart: the hour now begun and the 23 before it. */
export const SERVER_HOURLY_HOURS = 24;

/** `GET /api/servers/hourly?server_ids=1,2`: the servers of the page (at most all of a person's). */
export const serverHourlyQuerySchema = z.object({
  server_ids: z
    .string({ error: 'server_ids is required: the servers to read, separated by commas.' })
    .max(MAX_SERVERS_PER_USER * 11, `At most ${MAX_SERVERS_PER_USER} servers a request.`)
    .transform(commaSeparatedIds)
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^[1-9][0-9]{0,9}$/, 'A server id must be a number.')
            .transform(Number)
            .refine((id) => id <= 2_147_483_647, 'A server id must be a number.'),
        )
        .min(1, 'server_ids is required: the servers to read, separated by commas.')
        .max(MAX_SERVERS_PER_USER, `At most ${MAX_SERVERS_PER_USER} servers a request.`),
    ),
});
export type ServerHourlyQuery = z.input<typeof serverHourlyQuerySchema>;

/** What each server sent in each of the last 24 hours: one number an hour, oldest first, as `hours`. */
export const serverHourlySchema = z.object({
  /** The start of each hour (ISO), oldest first; the last is the hour now begun. */
  hours: z.array(z.string()).length(SERVER_HOURLY_HOURS),
  servers: z.array(
    z.object({
      server_id: z.number().int(),
      bans: z.array(z.number()).length(SERVER_HOURLY_HOURS),
      unbans: z.array(z.number()).length(SERVER_HOURLY_HOURS),
      refused: z.array(z.number()).length(SERVER_HOURLY_HOURS),
    }),
  ),
});
export type ServerHourly = z.infer<typeof serverHourlySchema>;

/** Standard Webhooks' form of a signing secret: `whsec_` and the base64 of its bytes. */
export const SIGNING_SECRET_PREFIX = 'whsec_';

/** The answer to registering a server: the only time its key and its signing secret are shown. */
export const createdServerSchema = serverSchema.extend({ key: z.string(), signing_secret: z.string() });
export type CreatedServer = z.infer<typeof createdServerSchema>;

export const serverParamsSchema = z.object({
  server_id: z.coerce
    .number({ error: 'The server id must be a number.' })
    .int('The server id must be a number.')
    .positive('The server id must be a number.'),
});
/** `/api/admin/users/:id/servers/:server_id`. */
export const userServerParamsSchema = userParamsSchema.extend(serverParamsSchema.shape);

// ---- What a server calls with its key ----

const agentVersion = z
  .string()
  .trim()
  .max(60, 'The version must be at most 60 characters.')
  .regex(PRINTABLE, 'The version may hold only printable characters.')
  .optional();
const addressSchema = z
  .string({ error: 'Send the address or CIDR to ban.' })
  .trim()
  .min(1, 'Send the address or CIDR to ban.')
  .max(64, 'The address must be at most 64 characters.');
const labelSchema = (what: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${what} must be at most ${max} characters.`)
    .regex(PRINTABLE, `${what} may hold only printable characters.`)
    .optional();

export const serverBanRequestSchema = z.object({
  address: addressSchema,
  /** Seconds from now; the group's default when left out, cut to its longest. */
  duration_seconds: z
    .number({ error: 'The duration must be a number of seconds.' })
    .int('The duration must be a whole number of seconds.')
    .positive('The duration must be a positive number of seconds.')
    .max(SERVER_BAN_SECONDS_MAX, 'The duration must be at most 5 years.')
    .optional(),
  /** The fail2ban jail or the CrowdSec scenario. */
  jail: labelSchema('The jail', 100),
  scenario: labelSchema('The scenario', 100),
  reason: labelSchema('The reason', 200),
  version: agentVersion,
});
export type ServerBanRequest = z.input<typeof serverBanRequestSchema>;

export const serverUnbanRequestSchema = z.object({ address: addressSchema, version: agentVersion });
export type ServerUnbanRequest = z.input<typeof serverUnbanRequestSchema>;

export const serverHeartbeatRequestSchema = z.object({ version: agentVersion });

/**
 * A ban or unban taken: `pending` until every list of the group has it at Cloudflare (a job writes
 * it, many servers' bans together).
 */
export const serverBanAnswerSchema = z.object({
  address: z.string(),
  /** pending: on its way to Cloudflare; review: waiting for a person's approval. */
  state: z.enum(['pending', 'review']),
  /** How many lists it goes to. */
  lists: z.number(),
  expires_at: z.string().nullable(),
});
export type ServerBanAnswer = z.infer<typeof serverBanAnswerSchema>;

/**
 * The signed webhook's message (`POST /api/server-api/webhook/:server_id`, Standard Webhooks headers):
 * `{"type":"ban","address":"203.0.113.7","duration_seconds":7200,"reason":"soar"}` or
 * `{"type":"unban","address":"203.0.113.7"}`.
 */
export const serverWebhookRequestSchema = z.discriminatedUnion(
  'type',
  [
    serverBanRequestSchema.extend({ type: z.literal('ban') }),
    serverUnbanRequestSchema.extend({ type: z.literal('unban') }),
  ],
  { error: 'The type must be "ban" or "unban".' },
);
export type ServerWebhookRequest = z.input<typeof serverWebhookRequestSchema>;
/** Its headers (Standard Webhooks): the message id, its Unix time and its signatures. */
export const WEBHOOK_ID_MAX = 100;
export const WEBHOOK_SIGNATURE_HEADER_MAX = 1_000;
/** How old (or how far ahead) a message's timestamp may be: Standard Webhooks' five minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** The largest webhook body, in bytes. */
export const WEBHOOK_BODY_MAX = 4_096;

export const serverWebhookParamsSchema = serverParamsSchema;

/** A server's new signing secret: shown once. */
export const serverSigningSecretSchema = z.object({ signing_secret: z.string() });

// ---- Review ----

/** Reviews a person can approve or reject in one call. */
export const MAX_REVIEW_IDS = 100;
/** The waiting bans one read shows (oldest first); `total` counts them all. */
export const REVIEW_PAGE = 200;

export const serverReviewSchema = z.object({
  id: z.number().int(),
  server_id: z.number().int(),
  server_name: z.string(),
  group_name: z.string(),
  address: z.string(),
  comment: z.string(),
  /** How long the ban lasts once approved (null: until removed). */
  duration_seconds: z.number().nullable(),
  requested_at: z.string(),
});
export type ServerReview = z.infer<typeof serverReviewSchema>;
export const serverReviewsSchema = z.object({ reviews: z.array(serverReviewSchema), total: z.number() });
export type ServerReviews = z.infer<typeof serverReviewsSchema>;

export const serverReviewDecisionRequestSchema = z.object({
  ids: z
    .array(z.number({ error: 'Ids must be numbers.' }).int('Ids must be whole numbers.').positive(), {
      error: 'Send the ids of the bans to decide on.',
    })
    .min(1, 'Choose at least one ban.')
    .max(MAX_REVIEW_IDS, `Choose at most ${MAX_REVIEW_IDS} bans at a time.`),
});
export type ServerReviewDecisionRequest = z.infer<typeof serverReviewDecisionRequestSchema>;
export const serverReviewDecidedSchema = z.object({ decided: z.number() });

export const serverHeartbeatAnswerSchema = z.object({
  server: z.string(),
  group: z.string(),
  /** Its bans and unbans not yet at Cloudflare. */
  pending: z.number(),
});

// ---- Install steps ----

/**
 * The step to paste on the machine for an integration, with Guardian's address and the key (or a
 * placeholder). The key goes into a file only root reads (mode 0600), written through a shell builtin
 * or a here-document, never onto a command line (`ps` shows those to every local user).
 */
export function serverInstallStep(
  integration: ServerIntegration,
  guardianUrl: string,
  key = '<the server key>',
  /** The signed webhook's server and signing secret (shown once, at registration or when renewed). */
  signed: { serverId: number | string; secret: string } = {
    serverId: '<server id>',
    secret: '<the signing secret>',
  },
): string {
  const url = guardianUrl.replace(/\/+$/, '');
  switch (integration) {
    case 'fail2ban':
      return [
        "# As root, with guardian.conf and guardian.py from Guardian's integrations/fail2ban:",
        'install -m 0644 guardian.conf /etc/fail2ban/action.d/guardian.conf',
        'install -m 0755 guardian.py /etc/fail2ban/action.d/guardian.py',
        'install -d -m 0700 /etc/fail2ban/guardian',
        `(umask 077; printf '%s\\n' '${key}' > /etc/fail2ban/guardian/key)`,
        `printf '[Init]\\nguardian_url = ${url}\\n' > /etc/fail2ban/action.d/guardian.local`,
        '# Then add "guardian" to the action of each jail that should ban, and:',
        'fail2ban-client reload',
      ].join('\n');
    case 'crowdsec':
      // Guardian pulls the Local API as a bouncer: no key of Guardian's goes on the CrowdSec machine.
      return [
        '# As root, on the CrowdSec machine: a bouncer key for Guardian (printed once):',
        'cscli bouncers add guardian',
        '# The Local API must be reachable from Guardian: api.server.listen_uri in /etc/crowdsec/config.yaml',
        '# (e.g. 0.0.0.0:8080, behind a firewall that lets only Guardian in). Then, in Guardian:',
        `#   ${url}/servers/integrations > CrowdSec > Connect: the Local API's address and that key.`,
      ].join('\n');
    case 'webhook':
      return [
        '# As the user that sends the calls (the signing secret in a file only that user reads):',
        'install -d -m 0700 ~/.config/guardian',
        `(umask 077; printf '%s\\n' '${signed.secret}' > ~/.config/guardian/signing-secret)`,
        '# A sender that signs each call (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature)',
        '# with the secret read from that file, never from its command line:',
        "(umask 077; cat > ~/.config/guardian/guardian-webhook) <<'EOF'",
        '#!/usr/bin/env python3',
        'import base64, hashlib, hmac, json, os, sys, time, urllib.error, urllib.request, uuid',
        "secret = open(os.path.expanduser('~/.config/guardian/signing-secret')).read().strip()",
        "key = base64.b64decode(secret.removeprefix('whsec_'))",
        'body = json.dumps(json.loads(sys.argv[1])).encode()',
        "msg_id, stamp = 'msg_' + uuid.uuid4().hex, str(int(time.time()))",
        "mac = hmac.new(key, f'{msg_id}.{stamp}.'.encode() + body, hashlib.sha256).digest()",
        `request = urllib.request.Request('${url}/api/server-api/webhook/${signed.serverId}', data=body, headers={`,
        "    'content-type': 'application/json', 'webhook-id': msg_id, 'webhook-timestamp': stamp,",
        "    'webhook-signature': 'v1,' + base64.b64encode(mac).decode()})",
        'try:',
        '    print(urllib.request.urlopen(request, timeout=30).read().decode())',
        'except urllib.error.HTTPError as refused:',
        "    sys.exit(f'{refused.code}: {refused.read().decode()}')",
        'EOF',
        'chmod 0700 ~/.config/guardian/guardian-webhook',
        '# Ban 203.0.113.7 for 2 hours; unban it:',
        `~/.config/guardian/guardian-webhook '{"type":"ban","address":"203.0.113.7","duration_seconds":7200,"reason":"soar"}'`,
        `~/.config/guardian/guardian-webhook '{"type":"unban","address":"203.0.113.7"}'`,
      ].join('\n');
    case 'script':
      return [
        '# As the user that runs the script (the key in a file only that user reads):',
        'install -d -m 0700 ~/.config/guardian',
        `(umask 077; printf '%s\\n' '${key}' > ~/.config/guardian/key)`,
        '# Ban 203.0.113.7 for an hour; curl reads the header from its standard input, not its command line:',
        `printf 'header = "Authorization: Bearer %s"\\n' "$(cat ~/.config/guardian/key)" | curl -sf -K - \\`,
        `  -H 'Content-Type: application/json' -d '{"address":"203.0.113.7","duration_seconds":3600,"reason":"manual"}' \\`,
        `  ${url}/api/server-api/ban`,
      ].join('\n');
  }
}
