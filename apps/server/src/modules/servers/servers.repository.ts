import type { ServerIntegration } from '@guardian/contract';
import type { Queryable } from '../../db';

export interface ServerGroupRow {
  id: number;
  user_id: number;
  name: string;
  default_seconds: number | null;
  max_seconds: number | null;
  comment_template: string;
  allowlist: string[];
  ceiling_per_hour: number;
  review: boolean;
  created_at: Date;
  updated_at: Date;
  servers: number;
  lists: { list_id: string; list_name: string; account_name: string }[] | null;
}

export interface ServerRow {
  id: number;
  user_id: number;
  group_id: number;
  group_name: string;
  name: string;
  integration: ServerIntegration;
  expected_interval_minutes: number;
  last_four: string;
  version: string | null;
  last_seen_at: Date | null;
  created_at: Date;
  revoked_at: Date | null;
  bans_day: number;
  bans_week: number;
  unbans_day: number;
  unbans_week: number;
  refused_day: number;
  refused_week: number;
  refused_at: Date | null;
  refused_reason: string | null;
  in_review: number;
  has_signing_secret: boolean;
}

/** A ban waiting for review, as the person's list shows it. */
export interface ReviewRow {
  id: number;
  server_id: number;
  server_name: string;
  group_name: string;
  value: string;
  comment: string;
  seconds: number | null;
  created_at: Date;
}

/** A waiting ban taken for a decision: its server's group gives the lists it goes to. */
export interface TakenReviewRow {
  id: number;
  server_id: number;
  group_id: number;
  value: string;
  comment: string;
  seconds: number | null;
}

/** A server as its key finds it, with its person and its group's policy. */
export interface ServerKeyRow {
  id: number;
  user_id: number;
  group_id: number;
  name: string;
  secret_sha256: Buffer | Uint8Array;
  signing_secret_encrypted: string | null;
  revoked_at: Date | null;
  email: string;
  level: number;
  disabled: boolean;
}

/** A target list of a group, as a ban is spread over them. */
export interface GroupListRow {
  ban_list_ref: number;
  account_ref: number;
  kind: string;
}

export interface PendingRow {
  id: number;
  server_id: number;
  ban_list_ref: number;
  action: 'ban' | 'unban';
  value: string;
  comment: string;
  expires_at: Date | null;
}

/** One hour of a server's counters (`hour` null: the server sent nothing in the last 24 hours). */
export interface ServerHourRow {
  server_id: number;
  now_hour: Date;
  hour: Date | null;
  bans: number | null;
  unbans: number | null;
  refused: number | null;
}

export type ServerEventKind = 'ban' | 'unban' | 'refused';
/** The per-hour counter column of each kind. */
const COUNTERS: Record<ServerEventKind, string> = { ban: 'bans', unban: 'unbans', refused: 'refused' };

/**
 * What servers sent is kept only for the ceiling's hour (bans) and a week of refusals to look into;
 * the list's 24 h / 7 d figures come from the per-hour counters (`server_counts`), kept 8 days.
 */
const BANS_KEPT = "interval '2 hours'";
const REFUSALS_KEPT = "interval '8 days'";
/** Signed webhook ids are remembered past the timestamps' tolerance (5 minutes either way). */
const WEBHOOK_IDS_KEPT = "interval '11 minutes'";
/** Refusals of a call that proved nothing (a revoked key, a bad signature) counted at most once a minute. */
export type UnprovenRefusal = 'revoked key' | 'bad signature' | 'stale timestamp' | 'replayed message';

const GROUP_SELECT = `
  SELECT g.*,
         (SELECT count(*)::int FROM servers s WHERE s.group_id = g.id) AS servers,
         (SELECT json_agg(json_build_object('list_id', bl.list_id, 'list_name', bl.list_name,
                                            'account_name', a.account_name) ORDER BY a.account_name, bl.list_name)
            FROM server_group_lists gl JOIN ban_lists bl ON bl.id = gl.ban_list_ref
            JOIN cloudflare_accounts a ON a.id = bl.account_ref
           WHERE gl.group_id = g.id) AS lists
    FROM server_groups g`;

const SERVER_SELECT = `
  SELECT s.id, s.user_id, s.group_id, g.name AS group_name, s.name, s.integration,
         s.expected_interval_minutes, s.last_four, s.version, s.last_seen_at, s.created_at, s.revoked_at,
         s.refused_at, s.refused_reason, s.signing_secret_encrypted IS NOT NULL AS has_signing_secret,
         coalesce(c.bans_day, 0)::int AS bans_day, coalesce(c.bans_week, 0)::int AS bans_week,
         coalesce(c.unbans_day, 0)::int AS unbans_day, coalesce(c.unbans_week, 0)::int AS unbans_week,
         coalesce(c.refused_day, 0)::int AS refused_day, coalesce(c.refused_week, 0)::int AS refused_week,
         (SELECT count(*)::int FROM server_ban_reviews v WHERE v.server_id = s.id AND v.state = 'waiting')
           AS in_review
    FROM servers s
    JOIN server_groups g ON g.id = s.group_id
    -- At most 168 hours of counters a server: the hour the figures are counted by.
    LEFT JOIN LATERAL (
      SELECT sum(bans) FILTER (WHERE hour > now() - interval '1 day') AS bans_day, sum(bans) AS bans_week,
             sum(unbans) FILTER (WHERE hour > now() - interval '1 day') AS unbans_day,
             sum(unbans) AS unbans_week,
             sum(refused) FILTER (WHERE hour > now() - interval '1 day') AS refused_day,
             sum(refused) AS refused_week
        FROM server_counts WHERE server_id = s.id AND hour > now() - interval '7 days') c ON true`;

/** The SQL of Server Management: groups, servers, what they sent and the bans on their way. */
export class ServersRepository {
  constructor(private readonly db: Queryable) {}

  groups(userId: number): Promise<ServerGroupRow[]> {
    return this.db.query<ServerGroupRow>(
      `${GROUP_SELECT} WHERE g.user_id = $1 ORDER BY lower(g.name), g.id`,
      [userId],
    );
  }

  async group(userId: number, groupId: number): Promise<ServerGroupRow | undefined> {
    const [row] = await this.db.query<ServerGroupRow>(`${GROUP_SELECT} WHERE g.user_id = $1 AND g.id = $2`, [
      userId,
      groupId,
    ]);
    return row;
  }

  async countGroups(userId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM server_groups WHERE user_id = $1',
      [userId],
    );
    return row?.n ?? 0;
  }

  async nameTaken(userId: number, name: string, exceptId = 0): Promise<boolean> {
    const rows = await this.db.query(
      'SELECT 1 FROM server_groups WHERE user_id = $1 AND lower(name) = lower($2) AND id <> $3',
      [userId, name, exceptId],
    );
    return rows.length > 0;
  }

  /** Writes a group's policy (a new one when `groupId` is undefined) and its lists; answers its id or undefined. */
  async saveGroup(
    userId: number,
    groupId: number | undefined,
    policy: {
      name: string;
      defaultSeconds: number | null;
      maxSeconds: number | null;
      commentTemplate: string;
      allowlist: string[];
      ceilingPerHour: number;
      review: boolean;
    },
    listRefs: number[],
  ): Promise<number | undefined> {
    const values = [
      userId,
      policy.name,
      policy.defaultSeconds,
      policy.maxSeconds,
      policy.commentTemplate,
      policy.allowlist,
      policy.ceilingPerHour,
      policy.review,
    ];
    const [row] =
      groupId === undefined
        ? await this.db.query<{ id: number }>(
            `INSERT INTO server_groups (user_id, name, default_seconds, max_seconds, comment_template, allowlist,
                                        ceiling_per_hour, review)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
            values,
          )
        : await this.db.query<{ id: number }>(
            `UPDATE server_groups SET name = $2, default_seconds = $3, max_seconds = $4, comment_template = $5,
                    allowlist = $6, ceiling_per_hour = $7, review = $8, updated_at = now()
              WHERE user_id = $1 AND id = $9 RETURNING id`,
            [...values, groupId],
          );
    if (!row) return undefined;
    await this.db.query('DELETE FROM server_group_lists WHERE group_id = $1', [row.id]);
    await this.db.query(
      `INSERT INTO server_group_lists (group_id, ban_list_ref) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
      [row.id, listRefs],
    );
    return row.id;
  }

  /** Deletes a group without servers; answers 'gone' (none of the person's), 'used' or 'deleted'. */
  async removeGroup(userId: number, groupId: number): Promise<'gone' | 'used' | 'deleted'> {
    const [group] = await this.db.query<{ servers: number }>(
      `SELECT (SELECT count(*)::int FROM servers s WHERE s.group_id = g.id) AS servers
         FROM server_groups g WHERE g.user_id = $1 AND g.id = $2 FOR UPDATE`,
      [userId, groupId],
    );
    if (!group) return 'gone';
    if (group.servers > 0) return 'used';
    await this.db.query('DELETE FROM server_groups WHERE id = $1', [groupId]);
    return 'deleted';
  }

  servers(userId: number): Promise<ServerRow[]> {
    return this.db.query<ServerRow>(`${SERVER_SELECT} WHERE s.user_id = $1 ORDER BY s.id`, [userId]);
  }

  /**
   * The per-hour counters of the person's servers among `serverIds` for the hours that began in the last
   * 24 hours, in one statement: a row per server found (its hour null when it sent nothing), a row per
   * hour it has counters for (at most 24 a server), and the database's current hour for the axis.
   */
  hourly(userId: number, serverIds: number[]): Promise<ServerHourRow[]> {
    return this.db.query<ServerHourRow>(
      `SELECT s.id AS server_id, date_trunc('hour', now()) AS now_hour, c.hour, c.bans, c.unbans, c.refused
         FROM servers s
         LEFT JOIN server_counts c ON c.server_id = s.id AND c.hour > now() - interval '1 day'
        WHERE s.user_id = $1 AND s.id = ANY($2::int[])
        ORDER BY s.id, c.hour`,
      [userId, serverIds],
    );
  }

  async server(userId: number, serverId: number): Promise<ServerRow | undefined> {
    const [row] = await this.db.query<ServerRow>(`${SERVER_SELECT} WHERE s.user_id = $1 AND s.id = $2`, [
      userId,
      serverId,
    ]);
    return row;
  }

  async countServers(userId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM servers WHERE user_id = $1',
      [userId],
    );
    return row?.n ?? 0;
  }

  async insertServer(
    userId: number,
    request: { name: string; groupId: number; integration: ServerIntegration; expectedMinutes: number },
  ): Promise<number> {
    const [row] = await this.db.query<{ id: number }>(
      `INSERT INTO servers (user_id, group_id, name, integration, expected_interval_minutes, secret_sha256, last_four)
       VALUES ($1, $2, $3, $4, $5, '\\x', '') RETURNING id`,
      [userId, request.groupId, request.name, request.integration, request.expectedMinutes],
    );
    return row!.id;
  }

  async setSecret(serverId: number, sha256: Buffer, lastFour: string): Promise<void> {
    await this.db.query('UPDATE servers SET secret_sha256 = $2, last_four = $3 WHERE id = $1', [
      serverId,
      sha256,
      lastFour,
    ]);
  }

  /** Revokes a server of the person's (again is no change); false when they have none of this id. */
  async revoke(userId: number, serverId: number): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE servers SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND user_id = $2 RETURNING id',
      [serverId, userId],
    );
    return rows.length > 0;
  }

  async byKeyId(serverId: number): Promise<ServerKeyRow | undefined> {
    const [row] = await this.db.query<ServerKeyRow>(
      `SELECT s.id, s.user_id, s.group_id, s.name, s.secret_sha256, s.signing_secret_encrypted, s.revoked_at,
              u.email, u.level, u.disabled
         FROM servers s JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
      [serverId],
    );
    return row;
  }

  /** Every call counts as a sign of life; the version as the integration last reported it. */
  async seen(serverId: number, version: string | undefined): Promise<void> {
    await this.db.query(
      `UPDATE servers SET last_seen_at = now(), version = coalesce($2, version) WHERE id = $1`,
      [serverId, version ?? null],
    );
  }

  /** Locks the server's row: its ceiling is counted and its ban recorded one call at a time. */
  async lockServer(serverId: number): Promise<void> {
    await this.db.query('SELECT id FROM servers WHERE id = $1 FOR UPDATE', [serverId]);
  }

  async policyOf(groupId: number): Promise<ServerGroupRow | undefined> {
    const [row] = await this.db.query<ServerGroupRow>(`${GROUP_SELECT} WHERE g.id = $1`, [groupId]);
    return row;
  }

  /** The group's target lists that are still the person's ip lists. */
  groupLists(groupId: number): Promise<GroupListRow[]> {
    return this.db.query<GroupListRow>(
      `SELECT bl.id AS ban_list_ref, bl.account_ref, bl.kind
         FROM server_group_lists gl JOIN ban_lists bl ON bl.id = gl.ban_list_ref
         JOIN server_groups g ON g.id = gl.group_id
         JOIN cloudflare_accounts a ON a.id = bl.account_ref AND a.user_id = g.user_id
        WHERE gl.group_id = $1 ORDER BY bl.id`,
      [groupId],
    );
  }

  async bansInLastHour(serverId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM server_events WHERE server_id = $1 AND kind = 'ban' AND at > now() - interval '1 hour'`,
      [serverId],
    );
    return row?.n ?? 0;
  }

  /**
   * What a server sent, counted in its hour's counter: a ban also as an event (the ceiling counts the
   * last hour's), a refusal as an event with its reason and as the server's latest refusal.
   */
  async recordEvent(serverId: number, kind: ServerEventKind, address: string | null, reason: string | null) {
    if (kind !== 'unban')
      await this.db.query(
        'INSERT INTO server_events (server_id, kind, address, reason) VALUES ($1, $2, $3, $4)',
        [serverId, kind, address, reason],
      );
    if (kind === 'refused')
      await this.db.query('UPDATE servers SET refused_at = now(), refused_reason = $2 WHERE id = $1', [
        serverId,
        reason,
      ]);
    const counter = COUNTERS[kind];
    await this.db.query(
      `INSERT INTO server_counts (server_id, hour, ${counter}) VALUES ($1, date_trunc('hour', now()), 1)
       ON CONFLICT (server_id, hour) DO UPDATE SET ${counter} = server_counts.${counter} + 1`,
      [serverId],
    );
  }

  /**
   * A refusal of a call that proved nothing of the server (a revoked key, a bad signature): at most one
   * a minute per server and reason, so a flood of them is not a flood of rows.
   */
  async recordUnproven(serverId: number, reason: UnprovenRefusal): Promise<void> {
    const [recent] = await this.db.query(
      `SELECT 1 FROM server_events WHERE server_id = $1 AND kind = 'refused' AND reason = $2
          AND at > now() - interval '1 minute' LIMIT 1`,
      [serverId, reason],
    );
    if (!recent) await this.recordEvent(serverId, 'refused', null, reason);
  }

  /** Forgets what is no longer counted: old events, counters past a week, remembered webhook ids. */
  async forgetOld(): Promise<void> {
    await this.db.query(
      `DELETE FROM server_events WHERE at < now() - ${REFUSALS_KEPT}
          OR (kind <> 'refused' AND at < now() - ${BANS_KEPT})`,
    );
    await this.db.query(`DELETE FROM server_counts WHERE hour < now() - interval '8 days'`);
    await this.db.query(`DELETE FROM server_webhook_ids WHERE at < now() - ${WEBHOOK_IDS_KEPT}`);
  }

  /** Remembers a signed message's id; false when the server already sent it (a replay). */
  async rememberWebhookId(serverId: number, messageId: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO server_webhook_ids (server_id, message_id) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [serverId, messageId],
    );
    return rows.length > 0;
  }

  /** A new signing secret of a server of the person's, not revoked; false when there is none such. */
  async setSigningSecret(userId: number, serverId: number, encrypted: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE servers SET signing_secret_encrypted = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL
       RETURNING id`,
      [serverId, userId, encrypted],
    );
    return rows.length > 0;
  }

  // ---- Review ----

  async insertReview(
    serverId: number,
    review: { value: string; comment: string; seconds: number | null },
  ): Promise<void> {
    await this.db.query(
      'INSERT INTO server_ban_reviews (server_id, value, comment, seconds) VALUES ($1, $2, $3, $4)',
      [serverId, review.value, review.comment, review.seconds],
    );
  }

  /** The person's bans waiting for review, oldest first, at most `limit`, and how many wait in all. */
  async reviews(userId: number, limit: number): Promise<{ rows: ReviewRow[]; total: number }> {
    const rows = await this.db.query<ReviewRow>(
      `SELECT v.id, v.server_id, s.name AS server_name, g.name AS group_name, v.value, v.comment, v.seconds,
              v.created_at
         FROM server_ban_reviews v JOIN servers s ON s.id = v.server_id
         JOIN server_groups g ON g.id = s.group_id
        WHERE s.user_id = $1 AND v.state = 'waiting' ORDER BY v.id LIMIT $2`,
      [userId, limit],
    );
    const [count] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM server_ban_reviews v JOIN servers s ON s.id = v.server_id
        WHERE s.user_id = $1 AND v.state = 'waiting'`,
      [userId],
    );
    return { rows, total: count?.n ?? 0 };
  }

  /** Decides the person's waiting bans of these ids (locked); answers those it found. */
  async decideReviews(
    userId: number,
    ids: readonly number[],
    state: 'approved' | 'rejected',
    decidedBy: string,
  ): Promise<TakenReviewRow[]> {
    return this.db.query<TakenReviewRow>(
      `UPDATE server_ban_reviews v SET state = $3, decided_by = $4, decided_at = now()
         FROM servers s
        WHERE v.id = ANY($2::bigint[]) AND v.server_id = s.id AND s.user_id = $1 AND v.state = 'waiting'
        RETURNING v.id, v.server_id, s.group_id, v.value, v.comment, v.seconds`,
      [userId, ids, state, decidedBy],
    );
  }

  /** The server unbanned an address: its bans of it still waiting for review are withdrawn. */
  async withdrawReviews(serverId: number, value: string): Promise<void> {
    await this.db.query(
      `UPDATE server_ban_reviews SET state = 'withdrawn', decided_by = 'the server (unbanned)', decided_at = now()
        WHERE server_id = $1 AND value = $2 AND state = 'waiting'`,
      [serverId, value],
    );
  }

  async insertBans(
    rows: {
      serverId: number;
      accountRef: number;
      listRef: number;
      action: 'ban' | 'unban';
      value: string;
      comment: string;
      expiresAt: Date | null;
      state: 'pending';
    }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO server_bans (server_id, account_ref, ban_list_ref, action, value, comment, expires_at, state)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[],
                            $7::timestamptz[], $8::text[])`,
      [
        rows.map((row) => row.serverId),
        rows.map((row) => row.accountRef),
        rows.map((row) => row.listRef),
        rows.map((row) => row.action),
        rows.map((row) => row.value),
        rows.map((row) => row.comment),
        rows.map((row) => row.expiresAt),
        rows.map((row) => row.state),
      ],
    );
  }

  async pendingCount(serverId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM server_bans WHERE server_id = $1 AND state = 'pending'`,
      [serverId],
    );
    return row?.n ?? 0;
  }

  /** How long (ms) the account's oldest pending ban or unban has waited; null when none waits. */
  async oldestPendingAge(accountRef: number): Promise<number | null> {
    const [row] = await this.db.query<{ age_ms: number | null }>(
      `SELECT (extract(epoch FROM now() - min(created_at)) * 1000)::float8 AS age_ms FROM server_bans
        WHERE account_ref = $1 AND state = 'pending'`,
      [accountRef],
    );
    return row?.age_ms ?? null;
  }

  /** The account's oldest pending bans and unbans, all servers together. */
  pendingOf(accountRef: number, limit: number): Promise<PendingRow[]> {
    return this.db.query<PendingRow>(
      `SELECT id, server_id, ban_list_ref, action, value, comment, expires_at FROM server_bans
        WHERE account_ref = $1 AND state = 'pending' ORDER BY id LIMIT $2`,
      [accountRef, limit],
    );
  }

  async finish(ids: readonly number[], state: 'done' | 'failed', error: string | null = null): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE server_bans SET state = $2, error = $3, done_at = now() WHERE id = ANY($1::bigint[]) AND state = 'pending'`,
      [ids, state, error],
    );
  }

  /** Accounts with pending bans and no job of theirs queued or running (nor one that failed within `pause`). */
  accountsWaiting(
    kind: string,
    pauseMs: number,
  ): Promise<{ account_ref: number; user_id: number; account_name: string }[]> {
    return this.db.query(
      `SELECT a.id AS account_ref, a.user_id, a.account_name FROM cloudflare_accounts a
        WHERE EXISTS (SELECT 1 FROM server_bans b WHERE b.account_ref = a.id AND b.state = 'pending')
          AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = $1 AND j.account_id = a.id
                            AND (j.state IN ('queued', 'running')
                                 OR (j.state = 'failed' AND j.finished_at > now() - $2 * interval '1 millisecond')))`,
      [kind, pauseMs],
    );
  }

  /** Whether a job of `kind` for the account waits, queued: it will take what is pending when it runs. */
  async jobQueued(kind: string, accountRef: number): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM jobs WHERE kind = $1 AND account_id = $2 AND state = 'queued' LIMIT 1`,
      [kind, accountRef],
    );
    return rows.length > 0;
  }

  /** Items of a list whose value is exactly one of `values` (addresses or CIDRs), whatever else holds their text. */
  async itemsWithValues(listRef: number, values: readonly string[]): Promise<{ id: number; ip: string }[]> {
    return this.db.query<{ id: number; ip: string }>(
      `SELECT id, ip FROM ban_list_items WHERE ban_list_ref = $1 AND ip_sort = ANY($2::inet[])`,
      [listRef, values],
    );
  }

  async activeInLastDay(userId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM servers
        WHERE user_id = $1 AND revoked_at IS NULL AND last_seen_at > now() - interval '1 day'`,
      [userId],
    );
    return row?.n ?? 0;
  }
}
