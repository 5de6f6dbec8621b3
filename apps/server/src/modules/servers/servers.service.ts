import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  BAN_LIST_ITEM_COMMENT_MAX,
  MAX_SERVER_GROUPS_PER_USER,
  MAX_SERVERS_PER_USER,
  REVIEW_PAGE,
  SERVER_HOURLY_HOURS,
  SERVER_KEY_PREFIX,
  SIGNING_SECRET_PREFIX,
  WEBHOOK_ID_MAX,
  WEBHOOK_SIGNATURE_HEADER_MAX,
  ipRangesOverlap,
  normalizeIpItem,
  parseIpSearch,
  type CreateServerRequest,
  type CreatedServer,
  type CurrentUser,
  type Server,
  type ServerBanAnswer,
  type ServerBanRequest,
  type ServerGroup,
  type ServerGroupRequest,
  type ServerHourly,
  type ServerReviews,
  type ServerUnbanRequest,
} from '@guardian/contract';
import { refuseBeyondPlan } from '../plans';
import { AppError } from '../../app-error';
import type { TokenCipher } from '../../crypto/token-cipher';
import type { Db } from '../../db';
import type { OwnedLists } from '../ban-list-mirror';
import {
  ServersRepository,
  type GroupListRow,
  type ServerGroupRow,
  type ServerKeyRow,
  type ServerRow,
  type UnprovenRefusal,
} from './servers.repository';

/** A server whose key checked out, as a request carries it. */
export interface ServerIdentity {
  id: number;
  name: string;
  groupId: number;
  user: CurrentUser;
}

const KEY_FORMAT = /^gs_([0-9]{1,15})_([A-Za-z0-9_-]{43})$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

const invalidKey = () => new AppError('UNAUTHORIZED', 'This server key is not valid or was revoked.');
const groupNotFound = () => new AppError('NOT_FOUND', 'Server group not found.');
const serverNotFound = () => new AppError('NOT_FOUND', 'Server not found.');

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toGroupDto(row: ServerGroupRow): ServerGroup {
  return {
    id: row.id,
    name: row.name,
    lists: row.lists ?? [],
    default_duration_seconds: row.default_seconds,
    max_duration_seconds: row.max_seconds,
    comment_template: row.comment_template,
    allowlist: row.allowlist,
    ceiling_per_hour: row.ceiling_per_hour,
    review: row.review,
    servers: row.servers,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** active while heard from within its expected interval, else silent; revoked once its key is. */
export function stateOf(
  row: Pick<ServerRow, 'revoked_at' | 'last_seen_at' | 'expected_interval_minutes'>,
  now = Date.now(),
): Server['state'] {
  if (row.revoked_at) return 'revoked';
  if (row.last_seen_at && now - row.last_seen_at.getTime() <= row.expected_interval_minutes * 60_000)
    return 'active';
  return 'silent';
}

function toServerDto(row: ServerRow): Server {
  return {
    id: row.id,
    name: row.name,
    group_id: row.group_id,
    group_name: row.group_name,
    integration: row.integration,
    version: row.version,
    expected_interval_minutes: row.expected_interval_minutes,
    key_last_four: row.last_four,
    state: stateOf(row),
    last_seen_at: iso(row.last_seen_at),
    created_at: row.created_at.toISOString(),
    revoked_at: iso(row.revoked_at),
    bans: { day: row.bans_day, week: row.bans_week },
    unbans: { day: row.unbans_day, week: row.unbans_week },
    refused: { day: row.refused_day, week: row.refused_week },
    last_refusal:
      row.refused_at && row.refused_reason
        ? { at: row.refused_at.toISOString(), reason: row.refused_reason }
        : null,
    in_review: row.in_review,
    has_signing_secret: row.has_signing_secret,
  };
}

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
const newSigningSecret = () => `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** A request's headers, as Fastify gives them: the Standard Webhooks ones are read (one sent twice is refused). */
export type SignedHeaders = Readonly<Record<string, string | string[] | undefined>>;

const unsigned = (why: string) => new AppError('UNAUTHORIZED', `The webhook call was refused: ${why}.`);

/**
 * The Standard Webhooks headers of a call, each once and bounded; else a 401. Checked before the body
 * is read (server-key.guard.ts): a call without them is not a signed call, and is not recorded (as a
 * call without a key).
 */
export function signedHeadersOf(headers: SignedHeaders): {
  id: string;
  timestamp: string;
  signature: string;
} {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
    throw unsigned('send webhook-id, webhook-timestamp and webhook-signature once each');
  if (id.length === 0 || id.length > WEBHOOK_ID_MAX || signature.length > WEBHOOK_SIGNATURE_HEADER_MAX)
    throw unsigned(
      `webhook-id must be 1 to ${WEBHOOK_ID_MAX} characters, webhook-signature at most ${WEBHOOK_SIGNATURE_HEADER_MAX}`,
    );
  return { id, timestamp, signature };
}

/** "{server}: {jail} {reason}" filled in, spaces tidied, cut to Cloudflare's comment length. */
export function commentOf(
  template: string,
  fields: { server: string; jail: string; reason: string },
): string {
  const filled = template.replace(
    /\{(server|jail|reason)\}/g,
    (_match, name: keyof typeof fields) => fields[name],
  );
  return filled
    .replace(/\s+/g, ' ')
    .replace(/[\s:,-]+$/, '')
    .trim()
    .slice(0, BAN_LIST_ITEM_COMMENT_MAX);
}

/** Queues the account's job of the servers' bans (unless one already waits), or leaves it to the sweep. */
export type BanWriteTrigger = (accountRef: number) => Promise<void>;

/** A ban the group's policy refused (the allowlist, the ceiling): raises the server's alert (modules/alerts). */
export type ServerRefusalAlert = (
  userId: number,
  server: { id: number; name: string },
  reason: 'allowlist' | 'ceiling',
  detail: string,
) => Promise<void>;

/**
 * Server Management (issue 39): groups and their policies, servers and their keys (owned by the
 * server record, shown once, stored as a SHA-256), and what a server may do with its key: ban and
 * unban within its group's policy, enforced here, and tell it is alive.
 */
export class ServersService {
  private readonly repository: ServersRepository;

  constructor(
    private readonly db: Db,
    private readonly owned: OwnedLists,
    /** Hands the account's pending bans to its job (server-bans-job.ts). */
    private readonly triggerWrites: BanWriteTrigger,
    /** Encrypts the servers' signing secrets at rest, as the Cloudflare tokens are. */
    private readonly cipher: TokenCipher,
    private readonly refusalAlert: ServerRefusalAlert = async () => {},
  ) {
    this.repository = new ServersRepository(db);
  }

  static isServerKey(token: string): boolean {
    return token.startsWith(SERVER_KEY_PREFIX);
  }

  // ---- Groups ----

  async groups(userId: number): Promise<ServerGroup[]> {
    return (await this.repository.groups(userId)).map(toGroupDto);
  }

  async createGroup(userId: number, request: ServerGroupRequest): Promise<ServerGroup> {
    return this.saveGroup(userId, undefined, request);
  }

  async updateGroup(userId: number, groupId: number, request: ServerGroupRequest): Promise<ServerGroup> {
    return this.saveGroup(userId, groupId, request);
  }

  async removeGroup(userId: number, groupId: number): Promise<void> {
    const outcome = await this.db.transaction((tx) => new ServersRepository(tx).removeGroup(userId, groupId));
    if (outcome === 'gone') throw groupNotFound();
    if (outcome === 'used')
      throw new AppError('CONFLICT', 'Servers are in this group: move or revoke them first.');
  }

  private async saveGroup(
    userId: number,
    groupId: number | undefined,
    input: ServerGroupRequest,
  ): Promise<ServerGroup> {
    // Checked by the route's schema: defaults filled in.
    const request = input as Required<ServerGroupRequest>;
    const listRefs: number[] = [];
    for (const listId of new Set(request.list_ids)) {
      // Another person's list, or one Guardian does not know: not found.
      const list = await this.owned.requireList(userId, listId);
      if (list.kind !== 'ip')
        throw new AppError(
          'BAD_REQUEST',
          `The list "${list.listName}" is not an IP list: servers ban addresses.`,
        );
      listRefs.push(list.ref);
    }
    const allowlist = [
      ...new Set(request.allowlist.map((entry) => (parseIpSearch(entry) as { value: string }).value)),
    ];
    const id = await this.db.transaction(async (tx) => {
      const repository = new ServersRepository(tx);
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      if (groupId === undefined && (await repository.countGroups(userId)) >= MAX_SERVER_GROUPS_PER_USER)
        throw new AppError('CONFLICT', `You already have ${MAX_SERVER_GROUPS_PER_USER} server groups.`);
      if (await repository.nameTaken(userId, request.name, groupId))
        throw new AppError('CONFLICT', `You already have a server group named "${request.name}".`);
      return repository.saveGroup(
        userId,
        groupId,
        {
          name: request.name,
          defaultSeconds: request.default_duration_seconds,
          maxSeconds: request.max_duration_seconds,
          commentTemplate: request.comment_template,
          allowlist,
          ceilingPerHour: request.ceiling_per_hour,
          review: request.review,
        },
        listRefs,
      );
    });
    if (id === undefined) throw groupNotFound();
    const group = await this.repository.group(userId, id);
    if (!group) throw groupNotFound();
    return toGroupDto(group);
  }

  // ---- Servers ----

  async servers(userId: number): Promise<Server[]> {
    return (await this.repository.servers(userId)).map(toServerDto);
  }

  /**
   * What the servers sent in each of the last 24 hours (the small chart of the list), from the per-hour
   * counters: one statement for all the servers asked. One of them not the person's: 404, as any server.
   */
  async hourly(userId: number, serverIds: number[]): Promise<ServerHourly> {
    const rows = await this.repository.hourly(userId, serverIds);
    const found = new Map<number, ServerHourly['servers'][number]>();
    const zeros = () => Array.from({ length: SERVER_HOURLY_HOURS }, () => 0);
    // The database's clock, as the counters' hours are its.
    const nowHour = rows[0]?.now_hour;
    if (!nowHour) throw serverNotFound();
    const first = nowHour.getTime() - (SERVER_HOURLY_HOURS - 1) * 3_600_000;
    for (const row of rows) {
      let server = found.get(row.server_id);
      if (!server) {
        server = { server_id: row.server_id, bans: zeros(), unbans: zeros(), refused: zeros() };
        found.set(row.server_id, server);
      }
      if (row.hour === null) continue;
      const at = Math.round((row.hour.getTime() - first) / 3_600_000);
      if (at < 0 || at >= SERVER_HOURLY_HOURS) continue;
      server.bans[at] = row.bans ?? 0;
      server.unbans[at] = row.unbans ?? 0;
      server.refused[at] = row.refused ?? 0;
    }
    if (found.size !== serverIds.length) throw serverNotFound();
    return {
      hours: Array.from({ length: SERVER_HOURLY_HOURS }, (_, i) =>
        new Date(first + i * 3_600_000).toISOString(),
      ),
      servers: serverIds.map((id) => found.get(id)!),
    };
  }

  /** An administrator's view of a person's servers: a 404 when no user has this id. */
  async serversOfUser(userId: number): Promise<Server[]> {
    const [user] = await this.db.query('SELECT id FROM users WHERE id = $1', [userId]);
    if (!user) throw new AppError('NOT_FOUND', 'User not found.');
    return this.servers(userId);
  }

  async create(userId: number, input: CreateServerRequest): Promise<CreatedServer> {
    const request = input as Required<CreateServerRequest>;
    const secret = randomBytes(32).toString('base64url');
    const signingSecret = newSigningSecret();
    const { id, key } = await this.db.transaction(async (tx) => {
      const repository = new ServersRepository(tx);
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      if (!(await repository.group(userId, request.group_id))) throw groupNotFound();
      await refuseBeyondPlan(tx, userId, 'servers', 1);
      if ((await repository.countServers(userId)) >= MAX_SERVERS_PER_USER)
        throw new AppError('CONFLICT', `You already have ${MAX_SERVERS_PER_USER} servers: revoke one first.`);
      const serverId = await repository.insertServer(userId, {
        name: request.name,
        groupId: request.group_id,
        integration: request.integration,
        expectedMinutes: request.expected_interval_minutes,
      });
      // The id is part of the key, so a call finds its server by primary key, then compares the secret.
      const serverKey = `${SERVER_KEY_PREFIX}${serverId}_${secret}`;
      await repository.setSecret(serverId, sha256(serverKey), serverKey.slice(-4));
      await repository.setSigningSecret(userId, serverId, this.cipher.encrypt(signingSecret));
      return { id: serverId, key: serverKey };
    });
    const row = await this.repository.server(userId, id);
    if (!row) throw serverNotFound();
    return { ...toServerDto(row), key, signing_secret: signingSecret };
  }

  /** A new signing secret for the server's signed webhook, shown once; the old one stops working. */
  async renewSigningSecret(userId: number, serverId: number): Promise<{ signing_secret: string }> {
    const signingSecret = newSigningSecret();
    if (await this.repository.setSigningSecret(userId, serverId, this.cipher.encrypt(signingSecret)))
      return { signing_secret: signingSecret };
    const row = await this.repository.server(userId, serverId);
    if (!row) throw serverNotFound();
    throw new AppError('CONFLICT', `The server "${row.name}" is revoked: register a new one.`);
  }

  async revoke(userId: number, serverId: number): Promise<void> {
    if (!(await this.repository.revoke(userId, serverId))) throw serverNotFound();
  }

  /** The number of the person's servers heard from in the last 24 hours (the overview's Active Servers). */
  activeServers(userId: number): Promise<number> {
    return this.repository.activeInLastDay(userId);
  }

  // ---- What a server does with its key ----

  /** The server of a request that sent `token` as its bearer; 401 for anything else (a revoked key's call is recorded). */
  async authenticate(token: string): Promise<ServerIdentity> {
    const match = KEY_FORMAT.exec(token);
    if (!match) throw invalidKey();
    const row = await this.repository.byKeyId(Number(match[1]));
    if (!row || !timingSafeEqual(Buffer.from(row.secret_sha256), sha256(token))) throw invalidKey();
    if (row.revoked_at) {
      await this.repository.recordUnproven(row.id, 'revoked key');
      throw invalidKey();
    }
    return identityOf(row);
  }

  /**
   * The server of a signed webhook call (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
   * `webhook-signature` over the raw body, with the server's signing secret). A bad signature, a
   * timestamp more than 5 minutes off, an id the server already sent: 401, recorded against the server
   * (once a minute per reason). An id is remembered once the signature checked out, so only the
   * secret's holder can use one up.
   */
  async authenticateSigned(serverId: number, body: string, headers: SignedHeaders): Promise<ServerIdentity> {
    const signed = signedHeadersOf(headers);
    const row = Number.isSafeInteger(serverId) ? await this.repository.byKeyId(serverId) : undefined;
    if (!row) throw unsigned('no such server');
    if (row.revoked_at) {
      await this.repository.recordUnproven(row.id, 'revoked key');
      throw unsigned('the server is revoked');
    }
    if (!row.signing_secret_encrypted) throw unsigned('the server has no signing secret: make one');
    const refuse = async (reason: UnprovenRefusal, why: string) => {
      await this.repository.recordUnproven(row.id, reason);
      return unsigned(why);
    };
    const { id, timestamp, signature } = signed;
    try {
      new Webhook(this.cipher.decrypt(row.signing_secret_encrypted)).verify(
        body,
        { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature },
        { jsonParse: false },
      );
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      if (/timestamp too (old|new)/.test(err.message))
        throw await refuse('stale timestamp', 'its webhook-timestamp is more than 5 minutes off');
      throw await refuse('bad signature', 'the signature does not match');
    }
    if (!(await this.repository.rememberWebhookId(row.id, id)))
      throw await refuse('replayed message', `the webhook-id "${id}" was already used`);
    return identityOf(row);
  }

  async heartbeat(server: ServerIdentity, version: string | undefined) {
    await this.repository.seen(server.id, version);
    const group = await this.repository.policyOf(server.groupId);
    return {
      server: server.name,
      group: group?.name ?? '',
      pending: await this.repository.pendingCount(server.id),
    };
  }

  /**
   * A ban, held to the group's policy: the allowlist (refused, 403), the ceiling of bans per hour
   * (refused, 429), the longest expiry (a longer one is cut to it). Taken, it waits in `server_bans`,
   * one row per target list, for its account's job; refusals are recorded against the server with
   * their reason.
   */
  async ban(server: ServerIdentity, request: ServerBanRequest): Promise<ServerBanAnswer> {
    await this.repository.seen(server.id, request.version);
    const value = await this.addressOf(server, request.address);
    const group = await this.repository.policyOf(server.groupId);
    if (!group) throw groupNotFound();
    const allowed = group.allowlist.find((entry) => ipRangesOverlap(entry, value));
    if (allowed) {
      const reason = `allowlist: ${value} is within ${allowed}`;
      await this.repository.recordEvent(server.id, 'refused', value, reason);
      await this.refusalAlert(server.user.id, server, 'allowlist', `${value} is within ${allowed}`);
      throw new AppError(
        'FORBIDDEN',
        `${value} is within ${allowed}, on the allowlist of the group "${group.name}": it is never banned.`,
      );
    }
    const lists = await this.repository.groupLists(group.id);
    if (lists.length === 0) {
      await this.repository.recordEvent(server.id, 'refused', value, 'the group has no lists');
      throw new AppError('CONFLICT', `The group "${group.name}" has no lists to ban in: choose some for it.`);
    }
    let seconds = request.duration_seconds ?? group.default_seconds;
    if (group.max_seconds !== null && (seconds === null || seconds > group.max_seconds))
      seconds = group.max_seconds;
    const expiresAt = expiryOf(seconds);
    const comment = commentOf(group.comment_template, {
      server: server.name,
      jail: request.jail ?? request.scenario ?? '',
      reason: request.reason ?? '',
    });
    const state = group.review ? 'review' : 'pending';
    await this.db
      .transaction(async (tx) => {
        const repository = new ServersRepository(tx);
        await repository.lockServer(server.id);
        await refuseBeyondPlan(tx, server.user.id, 'list_items', lists.length);
        if ((await repository.bansInLastHour(server.id)) >= group.ceiling_per_hour) {
          throw new AppError(
            'RATE_LIMITED',
            `The server "${server.name}" has sent ${group.ceiling_per_hour.toLocaleString('en-US')} bans in the last hour, the ceiling of its group "${group.name}": ${value} was not banned.`,
          );
        }
        // Under review it waits, whole, for a person; its length counts from the approval.
        if (state === 'review') await repository.insertReview(server.id, { value, comment, seconds });
        else await repository.insertBans(banRows(server.id, lists, { value, comment }, expiresAt));
        await repository.recordEvent(server.id, 'ban', value, null);
      })
      .catch(async (err: unknown) => {
        if (err instanceof AppError && err.code === 'RATE_LIMITED') {
          const reason = `ceiling: ${group.ceiling_per_hour} bans an hour`;
          await this.repository.recordEvent(server.id, 'refused', value, reason);
          await this.refusalAlert(server.user.id, server, 'ceiling', `${reason}, ${value} refused`);
        }
        throw err;
      });
    if (state === 'review') return { address: value, state, lists: lists.length, expires_at: null };
    await this.trigger(lists.map((list) => list.account_ref));
    return { address: value, state, lists: lists.length, expires_at: iso(expiresAt) };
  }

  // ---- Review ----

  async reviews(userId: number): Promise<ServerReviews> {
    const { rows, total } = await this.repository.reviews(userId, REVIEW_PAGE);
    return {
      reviews: rows.map((row) => ({
        id: row.id,
        server_id: row.server_id,
        server_name: row.server_name,
        group_name: row.group_name,
        address: row.value,
        comment: row.comment,
        duration_seconds: row.seconds,
        requested_at: row.created_at.toISOString(),
      })),
      total,
    };
  }

  /**
   * Approves (each ban queued for its server's group's lists, as any ban, its expiry counted from now)
   * or rejects the person's waiting bans: all of them, or none (a 404) when one of the ids is not a
   * ban of theirs waiting for review.
   */
  async decide(
    user: Pick<CurrentUser, 'id' | 'email'>,
    ids: readonly number[],
    decision: 'approved' | 'rejected',
  ): Promise<{ decided: number }> {
    const wanted = [...new Set(ids)];
    const accounts = await this.db.transaction(async (tx) => {
      const repository = new ServersRepository(tx);
      const taken = await repository.decideReviews(user.id, wanted, decision, user.email);
      if (taken.length !== wanted.length)
        throw new AppError(
          'NOT_FOUND',
          'Some of these bans are not waiting for review: decided already, withdrawn, or not yours.',
        );
      if (decision === 'rejected') return [];
      const refs: number[] = [];
      const listsOf = new Map<number, GroupListRow[]>();
      for (const review of taken) {
        const lists = listsOf.get(review.group_id) ?? (await repository.groupLists(review.group_id));
        listsOf.set(review.group_id, lists);
        await repository.insertBans(banRows(review.server_id, lists, review, expiryOf(review.seconds)));
        refs.push(...lists.map((list) => list.account_ref));
      }
      return refs;
    });
    await this.trigger(accounts);
    return { decided: wanted.length };
  }

  /** An unban: the address removed from every list of the group (its exact item, whatever else holds its text). */
  async unban(server: ServerIdentity, request: ServerUnbanRequest): Promise<ServerBanAnswer> {
    await this.repository.seen(server.id, request.version);
    const value = await this.addressOf(server, request.address);
    const lists = await this.repository.groupLists(server.groupId);
    await this.db.transaction(async (tx) => {
      const repository = new ServersRepository(tx);
      await repository.withdrawReviews(server.id, value);
      await repository.insertBans(
        lists.map((list) => ({
          serverId: server.id,
          accountRef: list.account_ref,
          listRef: list.ban_list_ref,
          action: 'unban' as const,
          value,
          comment: '',
          expiresAt: null,
          state: 'pending' as const,
        })),
      );
      await repository.recordEvent(server.id, 'unban', value, null);
    });
    await this.trigger(lists.map((list) => list.account_ref));
    return { address: value, state: 'pending', lists: lists.length, expires_at: null };
  }

  /** The address or CIDR as an IP list stores it; a malformed one is a 400, recorded. */
  private async addressOf(server: ServerIdentity, address: string): Promise<string> {
    const normal = normalizeIpItem(address);
    if ('error' in normal) {
      await this.repository.recordEvent(
        server.id,
        'refused',
        address.slice(0, 64),
        `malformed address: ${normal.error}`,
      );
      throw new AppError('BAD_REQUEST', normal.error);
    }
    return normal.value;
  }

  private async trigger(accountRefs: number[]): Promise<void> {
    for (const accountRef of new Set(accountRefs)) await this.triggerWrites(accountRef);
  }
}

function identityOf(row: ServerKeyRow): ServerIdentity {
  if (row.disabled) throw new AppError('UNAUTHORIZED', "This server's person is disabled.");
  return {
    id: row.id,
    name: row.name,
    groupId: row.group_id,
    user: Object.freeze({ id: row.user_id, email: row.email, level: row.level }),
  };
}

const expiryOf = (seconds: number | null) =>
  seconds === null ? null : new Date(Date.now() + seconds * 1000);

/** A ban's rows, one per target list, pending for the accounts' jobs. */
function banRows(
  serverId: number,
  lists: readonly GroupListRow[],
  ban: { value: string; comment: string },
  expiresAt: Date | null,
) {
  return lists.map((list) => ({
    serverId,
    accountRef: list.account_ref,
    listRef: list.ban_list_ref,
    action: 'ban' as const,
    value: ban.value,
    comment: ban.comment,
    expiresAt,
    state: 'pending' as const,
  }));
}
