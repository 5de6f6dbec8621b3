import { CHANNELS_MAX, type ChannelType } from '@guardian/contract';
import type { Db } from '../../db';
import type { AlertNotice } from './alert-notice';
import type { PostResult } from './channel-sender';

export interface ChannelRow {
  id: number;
  name: string;
  type: ChannelType;
  url_encrypted: string;
  url_masked: string;
  signing_secret_encrypted: string | null;
  enabled: boolean;
  from_environment: boolean;
  created_at: Date;
  last_delivery_at: Date | null;
  last_delivery_ok: boolean | null;
  last_delivery_status: number | null;
  last_delivery_message: string | null;
  failing_count: number;
  dropped_count: number;
  queued: number;
}

/** A delivery claimed by a sweep, with what its channel needs to post it. */
export interface ClaimedDelivery {
  id: number;
  channel_id: number;
  message_id: string;
  notice: AlertNotice;
  /** This attempt's number (1 for the first). */
  attempts: number;
  type: ChannelType;
  name: string;
  url_encrypted: string;
  signing_secret_encrypted: string | null;
}

/** A channel's failure as recorded: how many in a row, and whether its alert is to be raised now. */
export interface RecordedFailure {
  name: string;
  failingCount: number;
}

const CHANNEL_COLUMNS = `c.id, c.name, c.type, c.url_encrypted, c.url_masked, c.signing_secret_encrypted,
  c.enabled, c.from_environment, c.created_at, c.last_delivery_at, c.last_delivery_ok,
  c.last_delivery_status, c.last_delivery_message, c.failing_count, c.dropped_count`;

const toChannel = (row: ChannelRow): ChannelRow => ({
  ...row,
  id: Number(row.id),
  failing_count: Number(row.failing_count),
  dropped_count: Number(row.dropped_count),
  queued: Number(row.queued ?? 0),
});

const MESSAGE_MAX = 400;
const cut = (text: string) => (text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text);

/** The only SQL of the notification channels and their deliveries (migration 048). */
export class NotificationChannelsRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<ChannelRow[]> {
    const rows = await this.db.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS},
         (SELECT count(*) FROM notification_deliveries d WHERE d.channel_id = c.id) AS queued
       FROM notification_channels c ORDER BY c.from_environment DESC, c.id`,
    );
    return rows.map(toChannel);
  }

  async find(id: number): Promise<ChannelRow | undefined> {
    const [row] = await this.db.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS},
         (SELECT count(*) FROM notification_deliveries d WHERE d.channel_id = c.id) AS queued
       FROM notification_channels c WHERE c.id = $1`,
      [id],
    );
    return row && toChannel(row);
  }

  /**
   * Adds a channel unless CHANNELS_MAX are there already (the environment's not counted): undefined
   * then. The table is locked for the count, so two adds at once cannot both pass it.
   */
  create(channel: {
    name: string;
    type: ChannelType;
    urlEncrypted: string;
    urlMasked: string;
    secretEncrypted: string | null;
    enabled: boolean;
  }): Promise<number | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE notification_channels IN SHARE ROW EXCLUSIVE MODE');
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO notification_channels (name, type, url_encrypted, url_masked, signing_secret_encrypted, enabled)
         SELECT $1, $2, $3, $4, $5, $6
         WHERE (SELECT count(*) FROM notification_channels WHERE NOT from_environment) < ${CHANNELS_MAX}
         RETURNING id`,
        [
          channel.name,
          channel.type,
          channel.urlEncrypted,
          channel.urlMasked,
          channel.secretEncrypted,
          channel.enabled,
        ],
      );
      return row && Number(row.id);
    });
  }

  /** Changes the fields given; a channel turned off loses its waiting deliveries. Answers whether it exists. */
  async update(
    id: number,
    changes: { name?: string; urlEncrypted?: string; urlMasked?: string; enabled?: boolean },
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE notification_channels SET
         name = coalesce($2, name),
         url_encrypted = coalesce($3, url_encrypted),
         url_masked = coalesce($4, url_masked),
         enabled = coalesce($5, enabled),
         -- A new URL starts afresh: the old one's failures are not its own.
         failing_count = CASE WHEN $3::text IS NULL THEN failing_count ELSE 0 END
       WHERE id = $1 AND NOT from_environment RETURNING id`,
      [
        id,
        changes.name ?? null,
        changes.urlEncrypted ?? null,
        changes.urlMasked ?? null,
        changes.enabled ?? null,
      ],
    );
    if (rows.length === 0) return false;
    if (changes.enabled === false)
      await this.db.query('DELETE FROM notification_deliveries WHERE channel_id = $1', [id]);
    return true;
  }

  /** Deletes a channel (its deliveries go with it); answers its name, or undefined when there is none. */
  async remove(id: number): Promise<string | undefined> {
    const [row] = await this.db.query<{ name: string }>(
      'DELETE FROM notification_channels WHERE id = $1 AND NOT from_environment RETURNING name',
      [id],
    );
    return row?.name;
  }

  /** The environment's channel as it is set now: written (its URL and secret anew), or removed when unset. */
  async setEnvironmentChannel(
    channel: { name: string; urlEncrypted: string; urlMasked: string; secretEncrypted: string } | undefined,
  ): Promise<void> {
    if (!channel) {
      await this.db.query('DELETE FROM notification_channels WHERE from_environment');
      return;
    }
    await this.db.query(
      `INSERT INTO notification_channels
         (name, type, url_encrypted, url_masked, signing_secret_encrypted, enabled, from_environment)
       VALUES ($1, 'webhook', $2, $3, $4, true, true)
       ON CONFLICT (from_environment) WHERE from_environment DO UPDATE SET
         url_encrypted = EXCLUDED.url_encrypted,
         url_masked = EXCLUDED.url_masked,
         signing_secret_encrypted = EXCLUDED.signing_secret_encrypted,
         enabled = true,
         -- Another URL is another receiver: its predecessor's failures are not its own.
         failing_count = CASE WHEN notification_channels.url_masked = EXCLUDED.url_masked
           THEN notification_channels.failing_count ELSE 0 END`,
      [channel.name, channel.urlEncrypted, channel.urlMasked, channel.secretEncrypted],
    );
  }

  /**
   * Queues the notice for every channel that is on, ready at `now`; past `perChannel` waiting, a
   * channel's oldest are dropped and counted. Answers how many were queued.
   */
  async enqueue(notice: AlertNotice, now: Date, perChannel: number): Promise<number> {
    const queued = await this.db.query<{ channel_id: number }>(
      `INSERT INTO notification_deliveries (channel_id, message_id, notice, run_after)
       SELECT id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1::jsonb, $2
       FROM notification_channels WHERE enabled
       RETURNING channel_id`,
      [JSON.stringify(notice), now],
    );
    if (queued.length === 0) return 0;
    // Per channel, the newest `perChannel` stay: the first one past them (read on the (channel_id, id)
    // index, which stops there) and all older are dropped. A healthy channel's queue is near empty, so
    // this reads a few entries; a full one's, `perChannel`.
    await this.db.query(
      `WITH cut AS (
         SELECT c.id AS channel_id,
           (SELECT d.id FROM notification_deliveries d WHERE d.channel_id = c.id
            ORDER BY d.id DESC OFFSET $2 LIMIT 1) AS newest_dropped
         FROM unnest($1::bigint[]) AS c (id)
       ), dropped AS (
         DELETE FROM notification_deliveries d USING cut
         WHERE cut.newest_dropped IS NOT NULL AND d.channel_id = cut.channel_id AND d.id <= cut.newest_dropped
         RETURNING d.channel_id
       )
       UPDATE notification_channels c SET dropped_count = c.dropped_count + d.n
       FROM (SELECT channel_id, count(*) AS n FROM dropped GROUP BY channel_id) d
       WHERE c.id = d.channel_id`,
      [queued.map((row) => row.channel_id), perChannel],
    );
    return queued.length;
  }

  /**
   * Claims at most `limit` deliveries due at `now`, each once across processes (`SKIP LOCKED`): the
   * claim counts the attempt and moves `run_after` to `leaseUntil`, so a process that dies mid-post
   * leaves it to be taken again then.
   */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.db.query<ClaimedDelivery>(
      `UPDATE notification_deliveries d SET attempts = d.attempts + 1, run_after = $2
       FROM notification_channels c
       WHERE d.id IN (
         SELECT id FROM notification_deliveries WHERE run_after <= $1
         ORDER BY run_after, id LIMIT $3 FOR UPDATE SKIP LOCKED)
       AND c.id = d.channel_id
       RETURNING d.id, d.channel_id, d.message_id, d.notice, d.attempts, c.type, c.name,
         c.url_encrypted, c.signing_secret_encrypted`,
      [now, leaseUntil, limit],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id), channel_id: Number(row.channel_id) }));
  }

  /** Records a channel's success (a delivery's, or a test's); answers whether its failing alert was raised. */
  async succeeded(channelId: number, result: PostResult, at: Date, deliveryId?: number): Promise<boolean> {
    if (deliveryId !== undefined)
      await this.db.query('DELETE FROM notification_deliveries WHERE id = $1', [deliveryId]);
    const [row] = await this.db.query<{ was_alerted: boolean }>(
      `UPDATE notification_channels c SET last_delivery_at = $2, last_delivery_ok = true,
         last_delivery_status = $3, last_delivery_message = $4, failing_count = 0, failing_alert = false
       FROM (SELECT id, failing_alert FROM notification_channels WHERE id = $1 FOR UPDATE) before
       WHERE c.id = before.id
       RETURNING before.failing_alert AS was_alerted`,
      [channelId, at, result.status, cut(result.message)],
    );
    return row?.was_alerted ?? false;
  }

  /**
   * Records a channel's failure. A delivery with `retryAt` waits until then; without, it is dropped
   * (counted) and the channel's failing alert is marked raised. Answers the channel's failures in a row.
   */
  async failed(
    channelId: number,
    result: PostResult,
    at: Date,
    delivery?: { id: number; retryAt: Date | null },
  ): Promise<RecordedFailure | undefined> {
    const givenUp = delivery !== undefined && delivery.retryAt === null;
    if (delivery && delivery.retryAt)
      await this.db.query('UPDATE notification_deliveries SET run_after = $2 WHERE id = $1', [
        delivery.id,
        delivery.retryAt,
      ]);
    if (givenUp) await this.db.query('DELETE FROM notification_deliveries WHERE id = $1', [delivery.id]);
    const [row] = await this.db.query<{ name: string; failing_count: number }>(
      `UPDATE notification_channels SET last_delivery_at = $2, last_delivery_ok = false,
         last_delivery_status = $3, last_delivery_message = $4, failing_count = failing_count + 1,
         dropped_count = dropped_count + $5, failing_alert = failing_alert OR $6
       WHERE id = $1 RETURNING name, failing_count`,
      [channelId, at, result.status, cut(result.message), givenUp ? 1 : 0, givenUp],
    );
    return row && { name: row.name, failingCount: Number(row.failing_count) };
  }

  /** The active administrators, who are told of a failing channel (at most 100). */
  async administrators(): Promise<number[]> {
    const rows = await this.db.query<{ id: number }>(
      'SELECT id FROM users WHERE level = 0 AND NOT disabled ORDER BY id LIMIT 100',
    );
    return rows.map((row) => Number(row.id));
  }
}
