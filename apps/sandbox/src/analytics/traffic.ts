import { seededRandom } from '../faults';
import { entrypointOf } from '../resources/rulesets';
import type { BanList, SandboxState, Zone } from '../state';
import { hash, type Batch } from './batches';

/**
 * Generated traffic and security events of a zone: deterministic (seeded by the zone's name and the
 * hour, so the same zone answers the same numbers in every run) and relative to the clock (every hour up
 * to now has data). Nothing is stored: each hour's batches are drawn again when a query reads it.
 */

export const HOUR_MS = 3_600_000;

interface Origin {
  ip: string;
  asn: string;
  asnDescription: string;
  country: string;
}

/** A WAF custom rule the generated events are attributed to. */
interface RuleTarget {
  ruleId: string;
  rulesetId: string;
  description: string;
  /** The action as security events name it (`js_challenge` rules log `jschallenge`). */
  action: string;
  /** Sources from the lists the rule names (`ip.src in $list`). */
  origins: Origin[];
  /** The path the rule's expression names, if any (`http.request.uri.path contains "/admin"`). */
  path: string | null;
}

/**
 * What is fixed about a zone's traffic, drawn at its first query: who attacks it (some sources already in
 * the account's lists, some not) and which of its custom rules fire. Kept for the sandbox's life, so
 * later list or rule edits do not rewrite history, as Cloudflare's stored events are not rewritten.
 */
interface ZoneProfile {
  name: string;
  hosts: string[];
  requestsPerHour: number;
  listed: Origin[];
  unlisted: Origin[];
  blockingRules: RuleTarget[];
  pathRules: RuleTarget[];
  skipRules: RuleTarget[];
  /** Dimension values of each traffic cell by visitor country, shared by every hour's batches. */
  trafficFields: Record<string, string | number>[][];
}

const NETWORKS: readonly (readonly [asn: string, description: string, country: string])[] = [
  ['14061', 'DIGITALOCEAN-ASN', 'US'],
  ['16276', 'OVH', 'FR'],
  ['4134', 'CHINANET-BACKBONE', 'CN'],
  ['12389', 'ROSTELECOM-AS', 'RU'],
  ['24940', 'HETZNER-AS', 'DE'],
  ['45090', 'TENCENT-NET-AP', 'CN'],
  ['9009', 'M247', 'RO'],
  ['9121', 'TTNET', 'TR'],
  ['7922', 'COMCAST-7922', 'US'],
  ['4766', 'KIXS-AS-KR', 'KR'],
  ['28573', 'CLARO S.A.', 'BR'],
  ['55836', 'RELIANCEJIO-IN', 'IN'],
];

const VISITOR_COUNTRIES = ['TR', 'US', 'DE', 'GB', 'NL', 'FR', 'TR', 'TR', 'US', 'JP', 'BR', 'IN'];

/** Rules of Cloudflare's Managed Ruleset that generated attacks trip (ruleset id as Cloudflare's). */
const MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';
const MANAGED_RULES = [
  { description: 'SQLi - Comment', path: '/products', query: "?id=1'--" },
  { description: 'XSS - JavaScript Events', path: '/search', query: '?q=<img onerror=alert(1)>' },
  { description: 'Log4j Headers', path: '/', query: '' },
  { description: 'WordPress - Broken Access Control', path: '/wp-admin/admin-ajax.php', query: '' },
  { description: 'Directory Traversal - Linux', path: '/static/../../etc/passwd', query: '' },
].map((rule) => ({ ...rule, ruleId: hex(`managed:${rule.description}`) }));

const ATTACK_PATHS = ['/login', '/wp-login.php', '/xmlrpc.php', '/.env', '/admin', '/api/v1/users'];
const ATTACK_AGENTS = [
  'curl/8.5.0',
  'python-requests/2.32.3',
  'Go-http-client/1.1',
  'sqlmap/1.8',
  'Mozilla/5.0',
];

const EVENT_ACTIONS: Record<string, string> = {
  block: 'block',
  challenge: 'challenge',
  js_challenge: 'jschallenge',
  managed_challenge: 'managed_challenge',
  log: 'log',
  skip: 'skip',
};

/** 32 hex characters, stable for a text: ids of the generated rules Cloudflare owns. */
function hex(text: string): string {
  let out = '';
  for (let i = 0; out.length < 32; i++) out += hash(`${text}#${i}`).toString(16).padStart(8, '0');
  return out.slice(0, 32);
}

const pick = <T>(random: () => number, values: readonly T[]): T =>
  values[Math.floor(random() * values.length)] as T;

/** More traffic in the (UTC) afternoon and evening, less at night. */
const diurnal = (hour: number): number => 0.7 + 0.5 * Math.sin(((hour % 24) - 9) * (Math.PI / 12));

/** Single addresses of a list (ranges are skipped), drawn stably by index. */
function addressesOf(list: BanList, count: number, seed: number): string[] {
  const addresses = list.items.ordered().filter((item) => item.ip !== undefined && !item.ip.includes('/'));
  if (addresses.length === 0) return [];
  const picked = new Set<string>();
  for (let i = 0; i < count * 3 && picked.size < Math.min(count, addresses.length); i++) {
    picked.add(addresses[hash(`${seed}:${list.name}:${i}`) % addresses.length]!.ip!);
  }
  return [...picked];
}

function originOf(ip: string, seed: number): Origin {
  const [asn, asnDescription, country] = NETWORKS[hash(`${seed}:${ip}`) % NETWORKS.length]!;
  return { ip, asn, asnDescription, country };
}

function buildProfile(state: SandboxState, zone: Zone): ZoneProfile {
  const seed = hash(zone.name);
  const random = seededRandom(seed);
  const lists = state.listsOf(zone.accountId).filter((list) => list.kind === 'ip');
  const listNamed = new Map(lists.map((list) => [list.name, list]));
  const rules = (entrypointOf(state, zone.id)?.rules ?? []).filter((rule) => rule.enabled);
  const rulesetId = entrypointOf(state, zone.id)?.id ?? '';

  const listsOfRule = (expression: string) =>
    [...expression.matchAll(/\$([a-z0-9_]+)/g)]
      .map((match) => listNamed.get(match[1]!))
      .filter((list): list is BanList => list !== undefined);
  const target = (rule: (typeof rules)[number], origins: Origin[]): RuleTarget => ({
    ruleId: rule.id,
    rulesetId,
    description: rule.description,
    action: EVENT_ACTIONS[rule.action] ?? rule.action,
    origins,
    path: /"(\/[^"]*)"/.exec(rule.expression)?.[1] ?? null,
  });

  const allowLists = new Set(
    rules.filter((rule) => rule.action === 'skip').flatMap((rule) => listsOfRule(rule.expression)),
  );
  const blockingRules: RuleTarget[] = [];
  const pathRules: RuleTarget[] = [];
  const skipRules: RuleTarget[] = [];
  for (const rule of rules) {
    const ruleLists = listsOfRule(rule.expression);
    const origins = ruleLists.flatMap((list) => addressesOf(list, 6, seed)).map((ip) => originOf(ip, seed));
    if (rule.action === 'skip') {
      if (origins.length > 0) skipRules.push(target(rule, origins));
    } else if (origins.length > 0) blockingRules.push(target(rule, origins));
    else if (target(rule, []).path !== null) pathRules.push(target(rule, []));
  }
  // Sources already in a ban list of the account (never its allow lists), whether or not a rule names it.
  const listed = [
    ...new Map(
      [...blockingRules.flatMap((rule) => rule.origins)]
        .concat(
          lists
            .filter((list) => !allowLists.has(list))
            .flatMap((list) => addressesOf(list, 3, seed))
            .map((ip) => originOf(ip, seed)),
        )
        .map((origin) => [origin.ip, origin]),
    ).values(),
  ];
  // Sources in no list: 10.128.0.0/9 and 2001:db8:ff00::/40, clear of the demo's lists and allow lists.
  const unlisted = Array.from({ length: 12 }, (_, i) =>
    originOf(
      i % 6 === 5
        ? `2001:db8:ff${Math.floor(random() * 256)
            .toString(16)
            .padStart(2, '0')}::${(1 + Math.floor(random() * 65534)).toString(16)}`
        : `10.${128 + Math.floor(random() * 120)}.${Math.floor(random() * 256)}.${1 + Math.floor(random() * 254)}`,
      seed,
    ),
  );
  const hosts = [zone.name, `www.${zone.name}`, `api.${zone.name}`];
  return {
    name: zone.name,
    hosts,
    requestsPerHour: 400 + (seed % 2600),
    listed,
    unlisted,
    blockingRules,
    pathRules,
    skipRules,
    trafficFields: TRAFFIC_CELLS.map((cell) =>
      VISITOR_COUNTRIES.map((country) => ({
        cacheStatus: cell.cache,
        clientCountryName: country,
        clientRequestHTTPHost: hosts[cell.host]!,
        clientRequestPath: cell.path,
        edgeResponseStatus: cell.status,
        // 502 is the edge's answer for an origin it could not reach: no origin status.
        originResponseStatus: edgeOnly(cell) ? 0 : cell.status,
        requestSource: 'eyeball',
      })),
    ),
  };
}

interface GeneratedEvent {
  action: string;
  source: string;
  origin: Origin;
  host: string;
  method: string;
  path: string;
  query: string;
  ruleId: string;
  rulesetId: string;
  description: string;
  userAgent: string;
}

const edgeStatusOf = (action: string, source: string): number =>
  action === 'log' || action === 'skip' || action === 'allow' ? 200 : source === 'ratelimit' ? 429 : 403;

export function securityFields(input: GeneratedEvent): Record<string, string | number> {
  return {
    action: input.action,
    source: input.source,
    clientIP: input.origin.ip,
    clientAsn: input.origin.asn,
    clientASNDescription: input.origin.asnDescription,
    clientCountryName: input.origin.country,
    clientRequestHTTPHost: input.host,
    clientRequestHTTPMethodName: input.method,
    clientRequestPath: input.path,
    clientRequestQuery: input.query,
    ruleId: input.ruleId,
    rulesetId: input.rulesetId,
    description: input.description,
    edgeResponseStatus: edgeStatusOf(input.action, input.source),
    userAgent: input.userAgent,
  };
}

/** Cell templates of an hour's HTTP traffic: share of requests, bytes per request, cache and status. */
const TRAFFIC_CELLS = [
  { share: 0.17, path: '/', host: 0, cache: 'hit', status: 200, bytes: 24_000, page: true },
  { share: 0.05, path: '/', host: 1, cache: 'miss', status: 200, bytes: 24_000, page: true },
  { share: 0.03, path: '/', host: 0, cache: 'revalidated', status: 304, bytes: 400, page: false },
  { share: 0.2, path: '/static/app.js', host: 1, cache: 'hit', status: 200, bytes: 48_000, page: false },
  { share: 0.02, path: '/static/app.js', host: 1, cache: 'expired', status: 200, bytes: 48_000, page: false },
  { share: 0.12, path: '/images/logo.png', host: 1, cache: 'hit', status: 200, bytes: 82_000, page: false },
  { share: 0.1, path: '/blog', host: 1, cache: 'dynamic', status: 200, bytes: 31_000, page: true },
  { share: 0.01, path: '/old-blog/post', host: 1, cache: 'dynamic', status: 301, bytes: 300, page: false },
  { share: 0.14, path: '/api/v1/items', host: 2, cache: 'dynamic', status: 200, bytes: 3_200, page: false },
  { share: 0.05, path: '/login', host: 1, cache: 'dynamic', status: 200, bytes: 9_000, page: true },
  { share: 0.012, path: '/login', host: 1, cache: 'dynamic', status: 401, bytes: 600, page: false },
  { share: 0.02, path: '/missing-page', host: 1, cache: 'miss', status: 404, bytes: 2_100, page: false },
  { share: 0.01, path: '/wp-login.php', host: 0, cache: 'none', status: 403, bytes: 1_100, page: false },
  { share: 0.004, path: '/api/v1/items', host: 2, cache: 'dynamic', status: 500, bytes: 700, page: false },
  { share: 0.003, path: '/api/v1/items', host: 2, cache: 'dynamic', status: 502, bytes: 900, page: false },
  { share: 0.002, path: '/checkout', host: 1, cache: 'dynamic', status: 503, bytes: 800, page: false },
] as const;

type TrafficCell = (typeof TRAFFIC_CELLS)[number];
const isCached = (cell: TrafficCell) => cell.cache === 'hit' || cell.cache === 'revalidated';
/** Answered by the edge alone: from cache, blocked, or the edge's own error. */
const edgeOnly = (cell: TrafficCell) => isCached(cell) || cell.status === 403 || cell.status === 502;

export class TrafficGenerator {
  private readonly profiles = new Map<string, ZoneProfile>();

  constructor(private readonly state: SandboxState) {}

  /** Forgets the zones' profiles (after a reset, zones of the same name may differ). */
  reset(): void {
    this.profiles.clear();
  }

  private profile(zone: Zone): ZoneProfile {
    let profile = this.profiles.get(zone.id);
    if (!profile) {
      profile = buildProfile(this.state, zone);
      this.profiles.set(zone.id, profile);
    }
    return profile;
  }

  /** Batches of security events of the zone in the hours touching [lo, hi]. Active zones only. */
  securityBatches(zone: Zone, lo: number, hi: number): Batch[] {
    return this.hourly(zone, lo, hi, securityHour);
  }

  /** Batches of HTTP requests of the zone in the hours touching [lo, hi]. Active zones only. */
  trafficBatches(zone: Zone, lo: number, hi: number): Batch[] {
    return this.hourly(zone, lo, hi, trafficHour);
  }

  private hourly(zone: Zone, lo: number, hi: number, generate: typeof securityHour): Batch[] {
    if (zone.status !== 'active') return [];
    const profile = this.profile(zone);
    const batches: Batch[] = [];
    for (let hour = Math.floor(lo / HOUR_MS); hour <= Math.floor(hi / HOUR_MS); hour++) {
      generate(profile, zone.id, hour, batches);
    }
    return batches;
  }
}

function securityHour(profile: ZoneProfile, zoneTag: string, hour: number, out: Batch[]): void {
  const random = seededRandom(hash(`${profile.name}:${hour}:security`));
  const level = diurnal(hour);
  // Now and then an hour brings a wave: one source hammering the zone.
  const wave = random() < 0.05;
  const bursts = 2 + Math.floor(random() * 4 * level);
  const anyone = [...profile.listed, ...profile.unlisted];
  for (let i = 0; i < bursts; i++) {
    const roll = random();
    const host = pick(random, profile.hosts);
    const userAgent = pick(random, ATTACK_AGENTS);
    let input: GeneratedEvent;
    if (roll < 0.35 && profile.blockingRules.length > 0) {
      const rule = pick(random, profile.blockingRules);
      // Arguments in this order: the draws from `random` stay as they were.
      input = customRuleHit(rule, pick(random, rule.origins), host, pick(random, ATTACK_PATHS), userAgent);
    } else if (roll < 0.45 && profile.pathRules.length > 0) {
      const rule = pick(random, profile.pathRules);
      input = customRuleHit(rule, pick(random, anyone), host, rule.path ?? '/', userAgent);
    } else if (roll < 0.5 && profile.skipRules.length > 0) {
      const rule = pick(random, profile.skipRules);
      input = customRuleHit(rule, pick(random, rule.origins), host, '/admin', 'Mozilla/5.0');
    } else if (roll < 0.75) {
      const rule = pick(random, MANAGED_RULES);
      input = {
        action: random() < 0.8 ? 'block' : 'managed_challenge',
        source: 'firewallManaged',
        origin: pick(random, anyone),
        host,
        method: 'GET',
        path: rule.path,
        query: rule.query,
        ruleId: rule.ruleId,
        rulesetId: MANAGED_RULESET_ID,
        description: rule.description,
        userAgent,
      };
    } else if (roll < 0.88) {
      input = {
        action: 'block',
        source: 'ratelimit',
        origin: pick(random, profile.unlisted),
        host,
        method: 'POST',
        path: '/login',
        query: '',
        ruleId: hex(`${profile.name}:ratelimit`),
        rulesetId: hex(`${profile.name}:ratelimit-ruleset`),
        description: 'Login rate limit',
        userAgent,
      };
    } else if (roll < 0.95) {
      input = {
        action: 'managed_challenge',
        source: 'securitylevel',
        origin: pick(random, anyone),
        host,
        method: 'GET',
        path: '/',
        query: '',
        ruleId: '',
        rulesetId: '',
        description: '',
        userAgent,
      };
    } else {
      input = {
        action: 'block',
        source: 'ip',
        origin: pick(random, profile.listed.length > 0 ? profile.listed : profile.unlisted),
        host,
        method: 'GET',
        path: pick(random, ATTACK_PATHS),
        query: '',
        ruleId: hex(`${profile.name}:ip-access`),
        rulesetId: '',
        description: '',
        userAgent,
      };
    }
    const count = 1 + Math.floor(random() * 14 * level) + (wave && i === 0 ? 300 : 0);
    out.push({
      zoneTag,
      start: hour * HOUR_MS,
      spanMs: HOUR_MS,
      count,
      fields: securityFields(input),
      totals: { sampleInterval: count },
      key: hash(`${zoneTag}:${hour}:${i}`),
    });
  }
}

/** A GET that one of the zone's custom rules acted on. */
const customRuleHit = (
  rule: RuleTarget,
  origin: Origin,
  host: string,
  path: string,
  userAgent: string,
): GeneratedEvent => ({
  action: rule.action,
  ruleId: rule.ruleId,
  rulesetId: rule.rulesetId,
  description: rule.description,
  source: 'firewallCustom',
  origin,
  host,
  method: 'GET',
  path,
  query: '',
  userAgent,
});

function trafficHour(profile: ZoneProfile, zoneTag: string, hour: number, out: Batch[]): void {
  const random = seededRandom(hash(`${profile.name}:${hour}:http`));
  const requests = profile.requestsPerHour * diurnal(hour) * (0.85 + random() * 0.3);
  for (const [index, cell] of TRAFFIC_CELLS.entries()) {
    const count = Math.round(requests * cell.share * (0.8 + random() * 0.4));
    if (count === 0) continue;
    const cached = isCached(cell);
    const ttfb = cached ? 12 + random() * 25 : 70 + random() * 180;
    out.push({
      zoneTag,
      start: hour * HOUR_MS,
      spanMs: HOUR_MS,
      count,
      fields: pick(random, profile.trafficFields[index]!),
      totals: {
        edgeResponseBytes: count * cell.bytes,
        visits: cell.page ? Math.round(count * 0.45) : 0,
        edgeTimeToFirstByteMs: Math.round(count * ttfb),
        originResponseDurationMs: edgeOnly(cell) ? 0 : Math.round(count * (ttfb - 10)),
        sampleInterval: count,
      },
      // Requests have no ray names in the grouped dataset: no key needed.
      key: 0,
    });
  }
}
