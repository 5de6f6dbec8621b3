import { randomUUID } from 'node:crypto';
import type { TokenCipher } from '../../crypto/token-cipher';
import { PeriodicSweep } from '../../periodic-sweep';
import type { AlertNotice, AlertWebhooks } from './alert-notice';
import { channelRequest, type ChannelMessage, type ChannelRequestBody } from './channel-payloads';
import type { ChannelType } from '@guardian/contract';
import { POST_TIMEOUT_MS, postToChannel, urlRefusal, type PostResult } from './channel-sender';
import type { ClaimedDelivery, NotificationChannelsRepository } from './notification-channels.repository';

/**
 * The waits between attempts: 6 attempts over about an hour (30 s, 2 min, 5 min, 15 min, 40 min), as
 * a receiver down for a deploy or an outage comes back within that.
 */
export const RETRY_DELAYS_MS = [30_000, 120_000, 300_000, 900_000, 2_400_000] as const;
/** Deliveries waiting per channel; past it the oldest are dropped (and counted). */
export const QUEUED_PER_CHANNEL_MAX = 1_000;
/** How often each process looks for deliveries due (a delivery queued here is sent at once). */
const SWEEP_MS = 2_000;
/** Deliveries claimed at a time, posted side by side. */
const CLAIM_BATCH = 10;
/** A claimed delivery is taken again by any process after this (its process died mid-post). */
const CLAIM_LEASE_MS = 60_000;

/** How a failing channel is told to the administrators (AlertCauses, given by services.ts). */
export interface ChannelAlerts {
  failing(adminIds: readonly number[], channel: { id: number; name: string }, detail: string): Promise<void>;
  delivered(adminIds: readonly number[], channelId: number): Promise<void>;
}

export interface WebhookChannelsOptions {
  /** The console's address, for the links in messages. */
  publicUrl: string | undefined;
  /** Whether http:// to a loopback address is allowed (tests, the demo). */
  loopbackHttp: boolean;
  /** The clock of the retries' schedule (tests move it); the signatures keep the real time. */
  now?: () => Date;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  sweepMs?: number;
  queuedPerChannel?: number;
  /** Post a queued delivery at once in this process (default); tests that drive `sweep` themselves turn it off. */
  sweepOnDeliver?: boolean;
}

/**
 * Alerts posted to the notification channels (Standard Webhooks, Slack, Teams, Discord). `deliver`
 * queues one delivery per channel that is on, in the database, and returns; each process's sweep
 * claims the due ones (`FOR UPDATE SKIP LOCKED`) and posts them, retrying a failure with backoff up to
 * 1 + RETRY_DELAYS_MS.length attempts. A delivery that failed every attempt is dropped and raises the
 * channel's "keeps failing" alert to every active administrator; its next success clears it.
 */
export class WebhookChannels implements AlertWebhooks {
  private readonly sweeper: PeriodicSweep;
  private readonly now: () => Date;
  private readonly retryDelaysMs: readonly number[];
  private readonly timeoutMs: number;
  private readonly queuedPerChannel: number;
  /** A sweep asked for while one runs: it runs again once that one ends. */
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly channels: NotificationChannelsRepository,
    private readonly cipher: TokenCipher,
    private readonly alerts: ChannelAlerts,
    private readonly onError: (err: unknown) => void,
    private readonly options: WebhookChannelsOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? POST_TIMEOUT_MS;
    this.queuedPerChannel = options.queuedPerChannel ?? QUEUED_PER_CHANNEL_MAX;
    this.sweeper = new PeriodicSweep(() => this.sweep(), options.sweepMs ?? SWEEP_MS, onError);
  }

  /** How many attempts a delivery gets. */
  get maxAttempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  start(): void {
    this.sweeper.start();
  }

  async stop(): Promise<void> {
    await this.sweeper.stop();
    await this.running;
  }

  /** Queues the alert for every channel that is on and returns; a failure to queue is logged, not thrown. */
  async deliver(notice: AlertNotice): Promise<void> {
    try {
      const queued = await this.channels.enqueue(notice, this.now(), this.queuedPerChannel);
      if (queued > 0 && this.options.sweepOnDeliver !== false) this.kick();
    } catch (err) {
      this.onError(err);
    }
  }

  /** Sweeps now, in the background (a sweep running already runs once more). */
  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sweep()
      .then(() => undefined, this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Claims and posts the deliveries due, a batch at a time, until none is due; answers how many were posted. */
  async sweep(): Promise<number> {
    let posted = 0;
    for (;;) {
      const now = this.now();
      const batch = await this.channels.claim(now, new Date(now.getTime() + CLAIM_LEASE_MS), CLAIM_BATCH);
      // One delivery's failure to record (the database busy) leaves it to its lease, not the batch.
      await Promise.all(batch.map((delivery) => this.attempt(delivery).catch(this.onError)));
      posted += batch.length;
      if (batch.length < CLAIM_BATCH) return posted;
    }
  }

  private async attempt(delivery: ClaimedDelivery) {
    const result = await this.post(
      {
        type: delivery.type,
        url_encrypted: delivery.url_encrypted,
        signing_secret_encrypted: delivery.signing_secret_encrypted,
      },
      { type: 'alert.raised', notice: delivery.notice },
      delivery.message_id,
    );
    const at = this.now();
    if (result.ok) {
      await this.succeeded(delivery.channel_id, result, at, delivery.id);
      return;
    }
    const delay = this.retryDelaysMs[delivery.attempts - 1];
    const retryAt = delay === undefined ? null : new Date(at.getTime() + delay);
    const failure = await this.channels.failed(delivery.channel_id, result, at, { id: delivery.id, retryAt });
    if (retryAt !== null || !failure) return;
    await this.alerts.failing(
      await this.channels.administrators(),
      { id: delivery.channel_id, name: failure.name },
      `${failure.failingCount} attempts in a row failed and an alert was dropped after ${this.maxAttempts} attempts; the last: ${result.message}`,
    );
  }

  private async succeeded(channelId: number, result: PostResult, at: Date, deliveryId?: number) {
    const wasFailing = await this.channels.succeeded(channelId, result, at, deliveryId);
    if (wasFailing) await this.alerts.delivered(await this.channels.administrators(), channelId);
  }

  /** The channel was deleted or turned off: its failing alert, if any, resolves by itself. */
  async forget(channelId: number): Promise<void> {
    await this.alerts.delivered(await this.channels.administrators(), channelId);
  }

  /**
   * "Send a test": posts a test message to the channel now and records the outcome as its last
   * delivery (a success clears its failing alert). Answers the outcome; never throws for the receiver.
   */
  async test(
    channel: {
      id: number;
      name: string;
      type: ChannelType;
      url_encrypted: string;
      signing_secret_encrypted: string | null;
    },
    sentBy: string,
  ): Promise<PostResult> {
    const result = await this.post(
      channel,
      { type: 'channel.test', channelName: channel.name, sentBy },
      `msg_${randomUUID().replace(/-/g, '')}`,
    );
    const at = this.now();
    if (result.ok) await this.succeeded(channel.id, result, at);
    else await this.channels.failed(channel.id, result, at);
    return result;
  }

  private async post(
    channel: { type: ChannelType; url_encrypted: string; signing_secret_encrypted: string | null },
    message: ChannelMessage,
    messageId: string,
  ): Promise<PostResult> {
    let url: string;
    let request: ChannelRequestBody;
    try {
      url = this.cipher.decrypt(channel.url_encrypted);
      request = channelRequest(channel.type, message, {
        messageId,
        signingSecret:
          channel.signing_secret_encrypted === null
            ? null
            : this.cipher.decrypt(channel.signing_secret_encrypted),
        publicUrl: this.options.publicUrl,
        sentAt: new Date(),
      });
    } catch (err) {
      // A row the key cannot read (the encryption key changed): a failure of the channel, in words.
      this.onError(err);
      return {
        ok: false,
        status: null,
        message: "Guardian could not read the channel's stored URL or secret: add the channel again.",
      };
    }
    // Checked again at the post: a row written before a stricter configuration is not trusted.
    const refusal = urlRefusal(url, this.options.loopbackHttp);
    if (refusal) return { ok: false, status: null, message: refusal };
    return postToChannel(url, request, this.timeoutMs);
  }
}
