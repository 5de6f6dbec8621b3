import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  accountEndpoints,
  alertEndpoints,
  helpdeskEndpoints,
  ticketEndpoints,
  allEndpoints,
  API_DOCS_PATH,
  authEndpoints,
  banListEndpoints,
  banListItemEndpoints,
  dnsRecordEndpoints,
  firewallRuleEndpoints,
  ipSearchEndpoints,
  listCapacityEndpoints,
  pageRuleEndpoints,
  pathOf,
  apiKeyEndpoints,
  rulesOverviewEndpoints,
  serverApiEndpoints,
  notificationEndpoints,
  systemSettingEndpoints,
  serverEndpoints,
  crowdsecEndpoints,
  snapshotEndpoints,
  jobEndpoints,
  twoFactorEndpoints,
  zoneEndpoints,
  zoneSettingEndpoints,
  ownAccountEndpoints,
  passwordLinkEndpoints,
  userEndpoints,
  planEndpoints,
  type Endpoint,
  notificationChannelEndpoints,
} from '@guardian/contract';
import { decodeJwt } from 'jose';
import { Webhook } from 'standardwebhooks';
import type { Sandbox } from '@guardian/sandbox';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Queryable } from '../db';
import { isApiPath, pathParams, type RouteEntry } from '../route-table';
import { signChallenge } from '../modules/two-factor';
import { TokenCipher } from '../crypto/token-cipher';
import type { CloudflareTestContext } from './cloudflare-context';
import type { TestUser } from './context';
import { requestTo, type EndpointInput } from './request';

/**
 * The bound of a test that walks every route of the table in one go (each with several requests and
 * a look at the whole database before and after): it grows with the table of routes, so
 * it is not the 30 s of a test that makes a few requests.
 */
export const ROUTE_WALK_TIMEOUT_MS = 150_000;

/**
 * Shared ground of the security suites: a user's "estate" (a Cloudflare account with a list, items, a
 * zone, a DNS record, firewall rules and a page rule, mirrored locally where the console mirrors),
 * a resolver that turns any /api route of `app.routeTable` into a concrete, valid request against an
 * estate, and fingerprints of the database and the sandbox to prove that a refused request changed
 * nothing.
 *
 * A route the resolver cannot exercise (an id param after an unknown path segment, or a body-taking
 * route without a sample) makes `requestFor` throw, so a new route cannot slip past the route-walking
 * tests: teach this file about it.
 */

export type ResourceKind =
  | 'account'
  | 'list'
  | 'item'
  | 'zone'
  | 'record'
  | 'rule'
  | 'pageRule'
  | 'user'
  | 'snapshot'
  | 'apiKey'
  | 'session'
  | 'job'
  | 'import'
  | 'server'
  | 'serverGroup'
  | 'alert'
  | 'ticket'
  | 'plan'
  | 'channel';

/** The resource a path param names, from the path segment before it (`/zones/:x` is a zone). */
const KIND_AFTER_SEGMENT: Record<string, ResourceKind> = {
  accounts: 'account',
  banlists: 'list',
  items: 'item',
  zones: 'zone',
  dns: 'record',
  'firewall-rules': 'rule',
  pagerules: 'pageRule',
  users: 'user',
  snapshots: 'snapshot',
  'api-keys': 'apiKey',
  sessions: 'session',
  jobs: 'job',
  capacity: 'account',
  import: 'import',
  servers: 'server',
  webhook: 'server',
  groups: 'serverGroup',
  alerts: 'alert',
  tickets: 'ticket',
  plans: 'plan',
  'notification-channels': 'channel',
};

export function paramKind(url: string, param: string): ResourceKind {
  const segments = url.split('/');
  const index = segments.indexOf(`:${param}`);
  const kind = index > 0 ? KIND_AFTER_SEGMENT[segments[index - 1]!] : undefined;
  if (!kind) {
    throw new Error(
      `test/security.ts cannot tell what :${param} of ${url} names; add its path segment to KIND_AFTER_SEGMENT`,
    );
  }
  return kind;
}

/** `/api/cloudflare/zones/:zone_id/dns/:id` → `/api/cloudflare/zones/{zone}/dns/{record}`. */
function routeShape(url: string): string {
  return pathParams(url).reduce(
    (shape, param) => shape.replace(`:${param}`, `{${paramKind(url, param)}}`),
    url,
  );
}

/** A route as the suites name it in a failure: `DELETE /api/cloudflare/zones/{zone}/dns/{record}`. */
export function routeName(route: RouteEntry): string {
  return `${route.method} ${routeShape(route.url)}`;
}

export interface Estate {
  label: string;
  user: TestUser;
  /** The Cloudflare API token of the account (a secret: must never leave the server). */
  token: string;
  cfAccountId: string;
  accountName: string;
  /** Guardian's id of the account row. */
  accountRef: number;
  list: { listId: string; name: string; id?: number };
  item: { itemId: string; ip: string; id?: number };
  zone: { zoneId: string; domain: string; id?: number };
  record: { id: string };
  rules: { id: string }[];
  pageRule: { id: string };
  /** What deleting a second DNS record kept. */
  snapshot: { id?: string };
  /** An API key of the estate's person. */
  apiKey: { id?: number };
  /** A second session of the estate's person (not the one its headers use). */
  session: { id?: string };
  /** A job of the estate's person (its list's sync). */
  job: { id?: string };
  /** A previewed import into the estate's list. */
  import: { id?: string };
  /** A registered server of the estate's person (in a group of its own) and its key. */
  server: { id?: number; key?: string; groupId?: number; signingSecret?: string };
  /** A server group of the estate's person, with no server in it (so it can be deleted). */
  serverGroup: { id?: number };
  /** A plan nobody has (made for the estate: the admin walks may delete it). */
  plan: { id?: number };
  /** An alert of the estate's person (its API key's). */
  alert: { id?: number };
  /** A support ticket the estate's person opened. */
  ticket: { id?: number };
  /** A notification channel (nobody's own, as a plan; the admin walks may delete it). */
  channel: { id?: number };
}

let estateCounter = 0;

async function cfCall(
  sandbox: Sandbox,
  token: string,
  method: InjectOptions['method'],
  path: string,
  payload?: object,
) {
  const response = await sandbox.app.inject({
    method,
    url: `/client/v4${path}`,
    headers: { authorization: `Bearer ${token}` },
    payload,
  });
  if (response.statusCode >= 300)
    throw new Error(`sandbox ${method} ${path}: ${response.statusCode} ${response.body}`);
  return response.json<{ result: unknown }>().result;
}

/** The declaration a route was registered from (undefined for a route a test added on its own). */
export function endpointOf(route: RouteEntry): Endpoint | undefined {
  return allEndpoints.find((endpoint) => endpoint.method === route.method && endpoint.path === route.url);
}

/**
 * The routes the security suites walk: every /api route, HEAD excluded (Fastify mirrors GET), and not
 * the API reference page's files (/api/docs...: public, fixed files that read no input, the largest of
 * them Swagger UI's 1.7 MB bundle; api-docs.test.ts checks them).
 */
export function apiRoutes(app: FastifyInstance): RouteEntry[] {
  return app.routeTable.filter(
    (route) =>
      isApiPath(route.url) &&
      route.method !== 'HEAD' &&
      route.method !== 'OPTIONS' &&
      route.url !== API_DOCS_PATH &&
      !route.url.startsWith(`${API_DOCS_PATH}/`),
  );
}

/**
 * The order in which an owner can call every route once and find what each needs still there: reads,
 * then writes, then deletes from the deepest path up (items before their list, records before their
 * zone), collection-wide destruction (clean all), then signing out, last.
 */
export function ownerOrder(routes: RouteEntry[]): RouteEntry[] {
  const rank = (route: RouteEntry) => {
    const method =
      ({ GET: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 } as Record<string, number>)[route.method] ?? 4;
    return (
      (/\/clean$/.test(route.url) ? 1000 : 0) +
      // Deleting the account takes its lists and zones with it: after every other route on them.
      (route.method === 'DELETE' && route.url === accountEndpoints.remove.path ? 1500 : 0) +
      // Signing out ends the caller's session: after everything else.
      (route.url === authEndpoints.logout.path ? 2000 : 0) +
      method * 100 -
      (route.method === 'DELETE' ? pathParams(route.url).length : 0)
    );
  };
  return [...routes].sort((a, b) => rank(a) - rank(b));
}

let emptyLapi: Promise<string> | undefined;
/** A CrowdSec Local API without decisions (the estate's CrowdSec server's pulls succeed), one per test file. */
function emptyLapiUrl(): Promise<string> {
  emptyLapi ??= new Promise((resolve) => {
    const lapi = createServer((_request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.end('{"new":null,"deleted":null}');
    });
    // Never what keeps the test's process alive.
    lapi.unref();
    lapi.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(lapi.address() as AddressInfo).port}`));
  });
  return emptyLapi;
}

/** Calls an endpoint as a user and insists on success (for seeding). */
export async function call(
  ctx: CloudflareTestContext,
  user: TestUser,
  endpoint: Pick<Endpoint, 'method' | 'path'>,
  input: EndpointInput = {},
): Promise<LightMyRequestResponse> {
  const request = requestTo(endpoint, input);
  const response = await ctx.app.inject({ ...request, headers: user.headers });
  if (response.statusCode >= 400)
    throw new Error(`${request.method} ${request.url} answered ${response.statusCode}: ${response.body}`);
  return response;
}

/**
 * Calls an endpoint as a user and, when it answers with a job (202), waits for the job and insists that
 * it succeeded: the seeding that follows reads what the job wrote (a zone sync's zones, for one).
 */
async function callToEnd(
  ctx: CloudflareTestContext,
  user: TestUser,
  endpoint: Pick<Endpoint, 'method' | 'path'>,
  input: EndpointInput = {},
): Promise<void> {
  const job = await untilJobEnds(ctx, user, await call(ctx, user, endpoint, input));
  if (job && job.state !== 'succeeded')
    throw new Error(`${endpoint.method} ${endpoint.path}: its job ended ${job.state}: ${job.error}`);
}

/** A job as GET /api/jobs/:id answers it, as far as the suites read it. */
export interface EndedJob {
  state: string;
  error: string | null;
}

/**
 * After a 202 (a long operation answered with its job): waits until the job has ended and answers it,
 * so that its work in the background does not land in the next request's before-and-after comparison;
 * null for any other answer.
 */
export async function untilJobEnds(
  ctx: CloudflareTestContext,
  user: TestUser,
  response: LightMyRequestResponse,
  timeoutMs = 60_000,
): Promise<EndedJob | null> {
  if (response.statusCode !== 202) return null;
  const { id } = response.json<{ id: string }>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await call(ctx, user, jobEndpoints.get, { params: { id } })).json<EndedJob>();
    if (!['queued', 'running'].includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Seeds a Cloudflare account with one of everything, adds it to the user's console, and syncs the
 * mirrors through the API.
 */
export async function seedEstate(ctx: CloudflareTestContext, user: TestUser, label = ''): Promise<Estate> {
  estateCounter += 1;
  const tag = `${label || 'e'}${estateCounter}`.toLowerCase().replace(/[^a-z0-9]/g, '');
  const account = await ctx.addAccount(user, { plan: 'enterprise', name: `Estate ${tag}` });
  const { control } = ctx.sandbox;
  const cfAccountId = account.account_id;

  const listName = `sec_${tag}`;
  const list = control.addList(cfAccountId, { name: listName, kind: 'ip', description: 'security suite' });
  const octet = estateCounter % 250;
  control.seedListItems(cfAccountId, list.id, [
    { ip: `198.18.${octet}.1`, comment: `first of ${tag}` },
    { ip: `198.18.${octet}.2`, comment: `second of ${tag}` },
    { ip: `198.18.${octet}.0/30`, comment: `range of ${tag}` },
  ]);
  const domain = `${tag}-estate.com`;
  const zone = control.addZone(cfAccountId, domain, { status: 'active' });
  const token = account.tokenValue;
  const record = (await cfCall(ctx.sandbox, token, 'POST', `/zones/${zone.id}/dns_records`, {
    type: 'A',
    name: `www.${domain}`,
    content: '203.0.113.7',
    ttl: 1,
    proxied: false,
  })) as { id: string };
  const ruleset = (await cfCall(
    ctx.sandbox,
    token,
    'PUT',
    `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
    {
      rules: [
        {
          description: `Block one (${tag})`,
          expression: 'ip.src eq 203.0.113.9',
          action: 'block',
          enabled: true,
        },
        {
          description: `Challenge two (${tag})`,
          expression: 'http.request.uri.path contains "/x"',
          action: 'managed_challenge',
          enabled: true,
        },
        {
          description: `Block three (${tag})`,
          expression: 'ip.src eq 203.0.113.10',
          action: 'block',
          enabled: false,
        },
      ],
    },
  )) as { rules: { id: string }[] };
  const pageRule = (await cfCall(ctx.sandbox, token, 'POST', `/zones/${zone.id}/pagerules`, {
    targets: [{ target: 'url', constraint: { operator: 'matches', value: `${domain}/old/*` } }],
    actions: [{ id: 'always_use_https' }],
    priority: 1,
    status: 'active',
  })) as { id: string };

  const estate: Estate = {
    label: tag,
    user,
    token,
    cfAccountId,
    accountName: account.account_name,
    accountRef: account.id,
    list: { listId: list.id, name: listName },
    item: { itemId: String(control.getListItems(cfAccountId, list.id)[0]!.id), ip: '' },
    zone: { zoneId: zone.id, domain },
    record: { id: record.id },
    rules: ruleset.rules.map((rule) => ({ id: rule.id })),
    pageRule: { id: pageRule.id },
    snapshot: {},
    apiKey: {},
    session: {},
    job: {},
    import: {},
    server: {},
    serverGroup: {},
    alert: {},
    ticket: {},
    plan: {},
    channel: {},
  };
  estate.item.ip = String(
    control.getListItems(cfAccountId, list.id).find((item) => item.id === estate.item.itemId)!.ip,
  );
  await syncMirrors(ctx, estate);
  const jobs = await call(ctx, user, jobEndpoints.list);
  estate.job.id = jobs.json<{ jobs: { id: string }[] }>().jobs[0]?.id;
  const previewed = await call(ctx, user, banListItemEndpoints.importPreview, {
    params: { list_id: list.id },
    payload: { text: '198.51.100.77\n198.51.100.78' },
  });
  estate.import.id = previewed.json<{ id: string }>().id;
  const kept = (await cfCall(ctx.sandbox, token, 'POST', `/zones/${zone.id}/dns_records`, {
    type: 'TXT',
    name: `kept.${domain}`,
    content: 'deleted to leave a snapshot',
    ttl: 1,
  })) as { id: string };
  await call(ctx, user, dnsRecordEndpoints.remove, { params: { zone_id: zone.id, record_id: kept.id } });
  const snapshots = await call(ctx, user, snapshotEndpoints.list, { query: { zone_id: zone.id } });
  estate.snapshot.id = snapshots.json<{ id: string }[]>()[0]?.id;
  const created = await call(ctx, user, apiKeyEndpoints.create, {
    payload: { name: `Estate ${tag}`, access: 'read' },
  });
  estate.apiKey.id = created.json<{ id: number }>().id;
  const serversGroup = await call(ctx, user, serverEndpoints.groupCreate, {
    payload: { name: `Servers ${tag}`, list_ids: [list.id] },
  });
  const server = await call(ctx, user, serverEndpoints.create, {
    payload: {
      name: `web-${tag}`,
      group_id: serversGroup.json<{ id: number }>().id,
      integration: 'crowdsec',
    },
  });
  const serverId = server.json<{ id: number }>().id;
  estate.server = {
    id: serverId,
    key: server.json<{ key: string }>().key,
    groupId: serversGroup.json<{ id: number }>().id,
    signingSecret: server.json<{ signing_secret: string }>().signing_secret,
  };
  // Connected to a Local API without decisions, and pulled once: its next pull is an hour away.
  await call(ctx, user, crowdsecEndpoints.connect, {
    params: { server_id: serverId },
    payload: {
      lapi_url: await emptyLapiUrl(),
      bouncer_key: `estate-bouncer-key-${tag}`,
      pull_interval_seconds: 3600,
    },
  });
  // Connecting makes it due at once, so the app's CrowdSec sweep may be pulling it when this asks: 409
  // until that pull ends. Either pull leaves it pulled once.
  for (let tries = 1; ; tries += 1) {
    const pulled = await ctx.app.inject({
      ...requestTo(crowdsecEndpoints.pull, { params: { server_id: serverId } }),
      headers: user.headers,
    });
    if (pulled.statusCode < 400) break;
    if (pulled.statusCode !== 409 || tries === 100)
      throw new Error(`the estate's CrowdSec pull answered ${pulled.statusCode}: ${pulled.body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const emptyGroup = await call(ctx, user, serverEndpoints.groupCreate, {
    payload: { name: `Empty ${tag}`, list_ids: [list.id] },
  });
  estate.serverGroup.id = emptyGroup.json<{ id: number }>().id;
  // Creating the key raised the person's alert.
  const alerts = await call(ctx, user, alertEndpoints.list);
  estate.alert.id = alerts.json<{ alerts: { id: number }[] }>().alerts[0]?.id;
  const ticket = await call(ctx, user, ticketEndpoints.open, {
    payload: { subject: `Help ${tag}`, category: 'question', message: 'How do I add a zone?' },
  });
  estate.ticket.id = ticket.json<{ id: number }>().id;
  const signedIn = await call(ctx, user, authEndpoints.login, {
    payload: { email: user.email, password: user.password },
  });
  estate.session.id = decodeJwt(signedIn.json<{ token: string }>().token).sid as string;
  const [plan] = await ctx.db.query<{ id: number }>(
    `INSERT INTO plans (name, accounts, zones, lists, list_items, api_keys, servers, templates, report_range)
     VALUES ($1, 1, 1, 1, 1, 1, 1, 0, '24h') RETURNING id`,
    [`Estate ${tag}`],
  );
  estate.plan.id = plan!.id;
  // Its URL refuses connections at once (port 9, discard): a test of it is a quick 409.
  const cipher = new TokenCipher(ctx.config.encryptionKey);
  const [channel] = await ctx.db.query<{ id: number }>(
    `INSERT INTO notification_channels (name, type, url_encrypted, url_masked)
     VALUES ($1, 'slack', $2, 'http://127.0.0.1:9/****tate') RETURNING id`,
    [`Estate ${tag}`, cipher.encrypt('http://127.0.0.1:9/estate')],
  );
  estate.channel.id = Number(channel!.id);
  return estate;
}

/** Pulls the estate's lists, items and zones into the console and records their local ids. */
export async function syncMirrors(ctx: CloudflareTestContext, estate: Estate): Promise<void> {
  const { db } = ctx;
  const { user } = estate;
  await callToEnd(ctx, user, banListEndpoints.update);
  await callToEnd(ctx, user, banListItemEndpoints.sync, { params: { list_id: estate.list.listId } });
  await callToEnd(ctx, user, zoneEndpoints.sync);
  const [list] = await db.query<{ id: number }>(
    'SELECT id FROM ban_lists WHERE account_ref = $1 AND list_id = $2',
    [estate.accountRef, estate.list.listId],
  );
  estate.list.id = list?.id;
  if (list) {
    const [item] = await db.query<{ id: number }>(
      'SELECT id FROM ban_list_items WHERE ban_list_ref = $1 AND item_id = $2',
      [list.id, estate.item.itemId],
    );
    estate.item.id = item?.id;
  }
  const [zone] = await db.query<{ id: number }>(
    'SELECT id FROM zones WHERE account_ref = $1 AND zone_id = $2',
    [estate.accountRef, estate.zone.zoneId],
  );
  estate.zone.id = zone?.id;
}

/**
 * The forms an id of this kind may take in a path: Guardian's own row id and Cloudflare's id, since a
 * route may use either. Every form is tried.
 */
export function idForms(estate: Estate, kind: ResourceKind): string[] {
  const forms = (...ids: (string | number | undefined)[]) => [
    ...new Set(ids.filter((id) => id !== undefined).map(String)),
  ];
  switch (kind) {
    case 'account':
      return forms(estate.accountRef, estate.cfAccountId);
    case 'list':
      return forms(estate.list.listId, estate.list.id);
    case 'item':
      return forms(estate.item.itemId, estate.item.id);
    case 'zone':
      return forms(estate.zone.zoneId, estate.zone.id);
    case 'record':
      return forms(estate.record.id);
    case 'rule':
      return forms(estate.rules[0]!.id);
    case 'pageRule':
      return forms(estate.pageRule.id);
    case 'user':
      return forms(estate.user.id);
    case 'snapshot':
      return forms(estate.snapshot.id);
    case 'apiKey':
      return forms(estate.apiKey.id);
    case 'session':
      return forms(estate.session.id);
    case 'job':
      return forms(estate.job.id);
    case 'import':
      return forms(estate.import.id);
    case 'server':
      return forms(estate.server.id);
    case 'serverGroup':
      return forms(estate.serverGroup.id);
    case 'alert':
      return forms(estate.alert.id);
    case 'ticket':
      return forms(estate.ticket.id);
    case 'plan':
      return forms(estate.plan.id);
    case 'channel':
      return forms(estate.channel.id);
  }
}

/** Every concrete URL of a route against an estate: one per combination of id forms. */
export function urlsFor(
  route: RouteEntry,
  estate: Estate,
  owner: (kind: ResourceKind, index: number) => Estate = () => estate,
): string[] {
  const params = pathParams(route.url);
  let urls = [route.url];
  params.forEach((param, index) => {
    const forms = idForms(owner(paramKind(route.url, param), index), paramKind(route.url, param));
    urls = urls.flatMap((url) => forms.map((form) => url.replace(`:${param}`, encodeURIComponent(form))));
  });
  return urls;
}

interface FirewallRuleView {
  id: string;
  priority?: number;
  filter?: { id?: string };
  [key: string]: unknown;
}

let sampleCounter = 0;

const SAMPLE_PLAN = {
  accounts: 5,
  zones: 5,
  lists: 5,
  list_items: 500,
  api_keys: 5,
  servers: 5,
  templates: 0,
  report_range: '7d',
};

/** A route's request body and query. */
export interface SampleRequest {
  payload?: unknown;
  query?: Record<string, string>;
}

/**
 * A valid request body and query for a route, against the estate the ids belong to, so the only
 * reason a refused request is refused is who sent it. `viewer` reads what a body must repeat (the
 * whole rule list of a PUT) as that estate's owner.
 */
export async function sampleRequest(
  ctx: CloudflareTestContext,
  route: RouteEntry,
  estate: Estate,
): Promise<SampleRequest> {
  sampleCounter += 1;
  const endpoint = endpointOf(route);
  const firewallRules = async (): Promise<FirewallRuleView[]> => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: pathOf(firewallRuleEndpoints.list, { zone_id: estate.zone.zoneId }),
      headers: estate.user.headers,
    });
    if (response.statusCode !== 200) throw new Error(`reading firewall rules for a sample: ${response.body}`);
    return response.json<FirewallRuleView[]>();
  };
  const pageRuleBody = {
    targets: [
      {
        target: 'url',
        constraint: { operator: 'matches', value: `${estate.zone.domain}/s${sampleCounter}/*` },
      },
    ],
    actions: [{ id: 'always_use_https', value: 'on' }],
    priority: 1,
    status: 'active',
  };

  switch (endpoint) {
    case authEndpoints.login:
      return { payload: { email: estate.user.email, password: estate.user.password } };
    case accountEndpoints.add:
      return { payload: { account_name: `Sample ${sampleCounter}`, token: `sample-token-${sampleCounter}` } };
    case accountEndpoints.update:
      // Its own name again: the estate keeps the name its other samples use.
      return { payload: { account_name: estate.accountName } };
    case banListEndpoints.add:
      return {
        payload: { account_name: estate.accountName, list_name: `sample_${sampleCounter}`, kind: 'ip' },
      };
    case banListEndpoints.setPurpose:
      return { payload: { purpose: 'block' } };
    case banListItemEndpoints.importPreview:
      return { payload: { text: `198.19.${sampleCounter % 250}.77\nnot an address` } };
    case banListItemEndpoints.importApply:
      return { payload: { expires: 'never' } };
    case banListItemEndpoints.changeExpiry:
      return { payload: { expires: '1d' } };
    case banListItemEndpoints.add:
      return {
        payload: {
          ip: `198.19.${sampleCounter % 250}.${(sampleCounter >> 8) % 250}`,
          comment: 'sample item',
        },
      };
    case zoneEndpoints.add:
      return {
        payload: { account_id: estate.cfAccountId, domain: `sample${sampleCounter}-${estate.label}.com` },
      };
    case dnsRecordEndpoints.add:
    case dnsRecordEndpoints.update:
      return {
        payload: {
          type: 'A',
          name: `s${sampleCounter}`,
          content: '203.0.113.44',
          ttl: 1,
          proxied: false,
          comment: '',
        },
      };
    case firewallRuleEndpoints.add:
      return {
        payload: [
          {
            description: `Sample ${sampleCounter}`,
            action: 'block',
            paused: false,
            filter: { expression: `ip.src eq 192.0.2.${sampleCounter % 250}`, paused: false },
          },
        ],
      };
    case firewallRuleEndpoints.reorder: {
      const rules = await firewallRules();
      return { payload: [...rules].reverse().map((rule, index) => ({ ...rule, priority: index + 1 })) };
    }
    case firewallRuleEndpoints.update: {
      const rule = (await firewallRules()).find((entry) => entry.id === estate.rules[0]!.id);
      if (!rule) throw new Error('the estate’s first firewall rule is not listed');
      return { payload: { ...rule, paused: !rule.paused } };
    }
    case firewallRuleEndpoints.remove: {
      const rule = (await firewallRules()).find((entry) => entry.id === estate.rules[0]!.id);
      return { query: { filter_id: String(rule?.filter?.id ?? estate.rules[0]!.id) } };
    }
    case pageRuleEndpoints.add:
      return { payload: pageRuleBody };
    case pageRuleEndpoints.update:
      return { payload: { id: estate.pageRule.id, ...pageRuleBody } };
    case zoneSettingEndpoints.update:
      return { payload: { alwaysUseHTTPS: sampleCounter % 2 === 0 } };
    case rulesOverviewEndpoints.get:
      return { query: { zone_ids: estate.zone.zoneId } };
    case authEndpoints.loginTwoFactor: {
      // A real challenge for the estate's person (who has no two-factor on: refused, and recorded as theirs).
      const { token } = await signChallenge(estate.user.id, 'stamp', ctx.config);
      return { payload: { challenge_token: token, code: '000000' } };
    }
    case twoFactorEndpoints.enable:
      return { payload: { code: '000000' } };
    case twoFactorEndpoints.disable:
    case twoFactorEndpoints.regenerateRecoveryCodes:
      return { payload: { password: estate.user.password } };
    case userEndpoints.create:
      return {
        payload: {
          email: `sample${sampleCounter}-${estate.label}@example.com`,
          level: 1,
          password_setup: { method: 'link' },
        },
      };
    case userEndpoints.setLevel:
      return { payload: { level: 2 } };
    case userEndpoints.resetPassword:
      return { payload: { method: 'link' } };
    case passwordLinkEndpoints.check:
      return { payload: { token: `sample-link-${sampleCounter}` } };
    case passwordLinkEndpoints.use:
      return { payload: { token: `sample-link-${sampleCounter}`, password: 'a sample password' } };
    case ownAccountEndpoints.changePassword:
      // A wrong current password (a 400): the right one would end the caller's sessions, and every
      // later route of a walk would then be refused.
      return { payload: { current_password: `not ${estate.user.password}`, new_password: 'a new password' } };
    case ipSearchEndpoints.ban:
      return {
        payload: {
          value: `198.18.${sampleCounter % 250}.${(sampleCounter >> 8) % 250}`,
          comment: 'sample ban',
          list_ids: [estate.list.listId],
        },
      };
    case ipSearchEndpoints.remove:
      return { payload: { items: [{ list_id: estate.list.listId, item_id: estate.item.id ?? 1 }] } };
    case listCapacityEndpoints.setPlan:
      return { payload: { plan: 'enterprise' } };
    case planEndpoints.create:
    case planEndpoints.update:
      return { payload: { ...SAMPLE_PLAN, name: `Sample plan ${sampleCounter}` } };
    case userEndpoints.setPlan: {
      // The default plan: never deleted, so the walk's order does not matter.
      const [plan] = await ctx.db.query<{ id: number }>('SELECT id FROM plans WHERE is_default');
      return { payload: { plan_id: plan!.id } };
    }
    case apiKeyEndpoints.create:
      return { payload: { name: `Sample ${sampleCounter}`, access: 'ban', list_ids: [estate.list.listId] } };
    case serverEndpoints.groupCreate:
    case serverEndpoints.groupUpdate:
      return { payload: { name: `Group ${sampleCounter}`, list_ids: [estate.list.listId] } };
    case serverEndpoints.create:
      return {
        payload: { name: `server-${sampleCounter}`, group_id: estate.server.groupId, integration: 'script' },
      };
    case serverApiEndpoints.ban:
    case serverApiEndpoints.unban:
      return { payload: { address: `198.18.${sampleCounter % 250}.${(sampleCounter >> 8) % 250}` } };
    case ticketEndpoints.open:
      return {
        payload: { subject: `Sample ${sampleCounter}`, category: 'other', message: 'A sample question.' },
      };
    case ticketEndpoints.reply:
    case helpdeskEndpoints.reply:
      return { payload: { message: `Sample reply ${sampleCounter}` } };
    case helpdeskEndpoints.assign:
      return { payload: { assignee_id: null } };
    case serverApiEndpoints.heartbeat:
      return { payload: { version: 'sample' } };
    case systemSettingEndpoints.update:
      return { payload: { audit_retention_days: 365 } };
    case systemSettingEndpoints.testEmail:
      return { payload: { to: 'sample@example.com' } };
    case notificationChannelEndpoints.create:
      return {
        payload: {
          name: `Sample ${sampleCounter}`,
          type: 'discord',
          webhook_url: 'http://127.0.0.1:9/sample',
        },
      };
    case notificationChannelEndpoints.update:
      return { payload: { name: `Sample ${sampleCounter}` } };
    case notificationEndpoints.update:
      return { payload: { preferences: [{ kind: 'capacity', email: true, webhook: false }] } };
    case serverApiEndpoints.webhook:
      return {
        payload: { type: 'ban', address: `198.19.${sampleCounter % 250}.${(sampleCounter >> 8) % 250}` },
      };
    case serverEndpoints.reviewApprove:
    case serverEndpoints.reviewReject:
      // No ban waits for review in the estate: the id is not the caller's (404), as an owner's walk wants.
      return { payload: { ids: [1] } };
    case crowdsecEndpoints.connect:
      return {
        payload: {
          lapi_url: await emptyLapiUrl(),
          bouncer_key: `sample-bouncer-key-${sampleCounter}`,
          pull_interval_seconds: 3600,
        },
      };
    default:
      if (route.method === 'GET' || route.method === 'DELETE') return {};
      // Endpoints that take no body (sync, clean, update, sign out), and test routes that take none.
      if (endpoint ? endpoint.body === undefined : /\/selftest-[a-z]+$/.test(route.url)) return {};
      throw new Error(
        `test/security.ts has no sample request for ${routeName(route)}; add one to sampleRequest`,
      );
  }
}

/** A fingerprint of every row of every table in the test's schema. */
export async function dbFingerprint(db: Queryable): Promise<Record<string, string>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        -- The audit trail records every attempt, refused ones too: that is its job, not a change.
        AND table_name <> 'audit_events'
        -- Cloudflare's request budget counts the caller's own calls (to their own ids), not a change.
        AND table_name NOT IN ('cloudflare_budget', 'cloudflare_budget_seconds')
        -- So does the Lists write budget per Cloudflare account (a write counts before it is sent).
        AND table_name NOT IN ('list_write_budget', 'list_write_budget_minutes')
      ORDER BY table_name`,
  );
  // A session noting when it was last used (any request, refused ones too) is not a change either.
  const rowOf = (table: string) =>
    table === 'sessions' ? `(to_jsonb(x) - 'last_seen_at')::text` : 'x::text';
  const sql = tables
    .map(
      ({ table_name }) =>
        `SELECT '${table_name}' AS t, count(*)::int AS n, md5(coalesce(string_agg(${rowOf(table_name)}, '|' ORDER BY ${rowOf(table_name)}), '')) AS h FROM "${table_name}" x`,
    )
    .join(' UNION ALL ');
  const rows = await db.query<{ t: string; n: number; h: string }>(sql);
  return Object.fromEntries(rows.map((row) => [row.t, `${row.n}:${row.h}`]));
}

/** A fingerprint of everything the sandbox holds: accounts, lists and items, zones, records, rules. */
export function sandboxState(sandbox: Sandbox): unknown {
  const { control } = sandbox;
  const snapshot = control.snapshot();
  return {
    snapshot,
    items: snapshot.lists.map((list) => control.getListItems(list.account_id, list.id)),
    zones: snapshot.zones.map((zone) => ({
      dns: control.getDnsRecords(zone.id),
      rules: control.getRules(zone.id),
      pageRules: control.getPageRules(zone.id),
    })),
  };
}

export function sandboxFingerprint(sandbox: Sandbox): string {
  return createHash('sha256')
    .update(JSON.stringify(sandboxState(sandbox)))
    .digest('hex');
}

export interface WorldFingerprint {
  db: Record<string, string>;
  sandbox: string;
  calls: number;
}

/** The database, the sandbox and how many calls reached Cloudflare. */
export async function worldFingerprint(ctx: CloudflareTestContext): Promise<WorldFingerprint> {
  await ctx.sandbox.control.settle();
  return {
    db: await dbFingerprint(ctx.db),
    sandbox: sandboxFingerprint(ctx.sandbox),
    calls: ctx.sandbox.control.callCount(),
  };
}

/** The error body every non-2xx answer carries. */
export function isErrorBody(body: unknown): body is { code: string; message: string } {
  const candidate = body as { code?: unknown; message?: unknown } | null;
  return (
    typeof candidate?.code === 'string' &&
    typeof candidate.message === 'string' &&
    candidate.message.length > 0
  );
}

export function jsonOf(response: LightMyRequestResponse): unknown {
  try {
    return response.json();
  } catch {
    return undefined;
  }
}

/** The error code of an answer that carries the error body, else undefined. */
export function errorCodeOf(response: LightMyRequestResponse): string | undefined {
  const body = jsonOf(response);
  return isErrorBody(body) ? body.code : undefined;
}

/** A route's first URL against an estate and its sample request: what a walk of the routes sends. */
export async function sampleCall(
  ctx: CloudflareTestContext,
  route: RouteEntry,
  estate: Estate,
): Promise<{ url: string; sample: SampleRequest }> {
  const sample = await sampleRequest(ctx, route, estate);
  return { url: urlsFor(route, estate)[0]!, sample };
}

/** A route's sample request (sampleRequest) sent to one of its URLs, with `extraQuery` after its own. */
export function sendSample(
  ctx: CloudflareTestContext,
  route: RouteEntry,
  url: string,
  headers: Record<string, string>,
  sample: SampleRequest,
  extraQuery?: string,
): Promise<LightMyRequestResponse> {
  const search = [new URLSearchParams(sample.query).toString(), extraQuery].filter(Boolean).join('&');
  return ctx.app.inject({
    method: route.method as 'GET',
    url: search ? `${url}?${search}` : url,
    headers,
    payload: sample.payload as object,
  });
}

/**
 * What a server-API call of the estate's server carries: its key, or for the signed webhook the
 * Standard Webhooks headers over `payload` (sent as JSON.stringify gives it, as inject does).
 */
export function serverCallHeaders(
  route: RouteEntry,
  estate: Estate,
  payload: unknown,
): Record<string, string> {
  if (route.url !== serverApiEndpoints.webhook.path) return { authorization: `Bearer ${estate.server.key}` };
  const id = `msg_${createHash('sha256').update(`${Math.random()}`).digest('hex').slice(0, 16)}`;
  const at = new Date();
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(estate.server.signingSecret!).sign(id, at, JSON.stringify(payload)),
  };
}
