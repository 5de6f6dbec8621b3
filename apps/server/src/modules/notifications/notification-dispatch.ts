import { ALERT_KIND_LABELS, type AlertKind } from '@guardian/contract';
import type { Db } from '../../db';
import { PeriodicSweep } from '../../periodic-sweep';
import type { RaisedAlert } from '../alerts';
import { MailBatches, type BatchContent, type ClaimedBatch } from './mail-batches';
import { NotificationPreferences } from './notification-preferences';
import type { AlertNotice, AlertWebhooks } from './notice';

/** Outgoing e-mail as the dispatch uses it (System Setting's Mailer, handed over by services.ts). */
export interface MailChannel {
  /** SMTP is set up (a host and a sender): without it nothing is held for e-mail. */
  isSetUp(): boolean;
  send(mail: { to: string; subject: string; text: string }): Promise<unknown>;
}

/** A channel's own alert (modules/alerts' AlertCauses): raised after repeated failures, cleared by a success. */
export interface ChannelFailures {
  failed(userId: number, channel: 'email', detail: string): Promise<void>;
  delivered(userId: number, channel: 'email'): Promise<void>;
}

export interface NotificationDispatchOptions {
  /** One e-mail per person and kind in this window; the rest in one digest when it ends. */
  windowMs: number;
  /** How often each process looks for due digests and retries (a first e-mail goes at once). */
  sweepMs: number;
  /** The console's address, for the e-mails' links; unset, they name the path. */
  publicUrl?: string;
  /** The clock (ms) of the windows and retries; tests move it by hand. */
  now?: () => number;
  webhooks?: AlertWebhooks;
}

/** New alerts waiting to be recorded in this process, at most (past it one is dropped and logged). */
const QUEUE_MAX = 20_000;
/** A digest lists this many titles, then "and N more". */
export const DIGEST_LISTED = 50;
/** Batches taken per statement of a sweep. */
const CLAIM_BATCH = 20;
/** How long a process holds a batch it sends: past it (the process died), another one takes it. */
const CLAIM_LEASE_MS = 120_000;
/** A failed send waits 1, 2, 4... minutes, at most an hour, before the next try. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 3_600_000;
/** From this failed try of a batch on, the person's `notification-failed` alert is raised. */
export const FAILURES_BEFORE_ALERT = 3;
/** After this many tries (about 5 hours) a batch is given up: its alerts stay in the console. */
export const MAX_ATTEMPTS = 10;

export const retryDelayMs = (attempts: number) =>
  Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);

const timeOf = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

/**
 * Tells people of their new alerts beyond the console, by their preferences: e-mail, batched (the
 * first alert of a kind at once, the next ones of that kind within the window in one digest when it
 * ends), and webhooks (queued by modules/notification-webhooks' `WebhookChannels`).
 *
 * It never fails or slows the cause: `notify` queues in memory and returns; a background loop records
 * each notice (the person's preferences, the e-mail's held row) and a sweep sends what is due. What is
 * held for e-mail is in the database, so any process sends it, after a restart too; an alert in the
 * memory queue of a process that dies is not e-mailed (it is in the console).
 */
export class NotificationDispatch {
  private readonly preferences: NotificationPreferences;
  private readonly batches: MailBatches;
  private readonly sweep: PeriodicSweep;
  private readonly queue: RaisedAlert[] = [];
  private recording: Promise<void> | undefined;
  private sending: Promise<void> | undefined;
  private sendAgain = false;
  private readonly now: () => number;

  constructor(
    db: Db,
    private readonly mail: MailChannel,
    private readonly failures: ChannelFailures,
    private readonly onError: (err: unknown) => void,
    private readonly options: NotificationDispatchOptions,
  ) {
    this.preferences = new NotificationPreferences(db);
    this.batches = new MailBatches(db);
    this.now = options.now ?? Date.now;
    this.sweep = new PeriodicSweep(() => this.sendDue(), options.sweepMs, onError);
  }

  start(): void {
    this.sweep.start();
  }

  async stop(): Promise<void> {
    await this.sweep.stop();
    await this.idle();
  }

  /** A new alert: queued, recorded and delivered in the background. Never throws. */
  readonly notify = (alert: RaisedAlert): void => {
    // The channels' own alert stays in the console: telling of it by a failing channel would loop.
    if (alert.kind === 'notification-failed') return;
    if (this.queue.length >= QUEUE_MAX) {
      this.onError(new Error(`notification queue full: alert ${alert.alertId} is in the console only`));
      return;
    }
    this.queue.push(alert);
    this.record();
  };

  /** Resolves when every queued notice is recorded and every e-mail due is sent or retried later. */
  async idle(): Promise<void> {
    while (this.recording || this.sending) {
      await this.recording;
      await this.sending;
    }
  }

  private record(): void {
    if (this.recording) return;
    this.recording = (async () => {
      let held = false;
      for (let alert = this.queue.shift(); alert; alert = this.queue.shift()) {
        try {
          held = (await this.deliver(alert)) || held;
        } catch (err) {
          this.onError(err);
        }
      }
      // The first alert of a kind goes at once: its batch is due now.
      if (held) void this.sendDue();
    })().finally(() => {
      this.recording = undefined;
      if (this.queue.length > 0) this.record();
    });
  }

  /** One new alert to its person's channels; answers whether it was held for e-mail. */
  private async deliver(alert: RaisedAlert): Promise<boolean> {
    const target = await this.preferences.targetOf(alert.userId, alert.kind);
    if (!target) return false;
    const notice: AlertNotice = {
      alertId: alert.alertId,
      userId: alert.userId,
      userEmail: target.email,
      kind: alert.kind,
      severity: alert.severity,
      title: alert.title,
      subject: alert.subject,
      count: alert.count,
      firstSeen: alert.firstSeen.toISOString(),
      lastSeen: alert.lastSeen.toISOString(),
      path: `/dashboard/alerts?kind=${alert.kind}`,
    };
    if (target.byWebhook && this.options.webhooks) {
      await this.options.webhooks.deliver(notice).catch(this.onError);
    }
    // Without SMTP nothing is held: the preferences page says e-mail is not set up.
    if (!target.byEmail || !this.mail.isSetUp()) return false;
    await this.batches.hold(
      {
        userId: alert.userId,
        kind: alert.kind,
        alertId: alert.alertId,
        severity: alert.severity,
        title: alert.title,
        raisedAt: new Date(this.now()),
      },
      this.options.windowMs,
    );
    return true;
  }

  /** Sends every batch due now, in this process's turn (a call while one runs runs it again after). */
  sendDue(): Promise<void> {
    if (this.sending) {
      this.sendAgain = true;
      return this.sending;
    }
    this.sending = (async () => {
      do {
        this.sendAgain = false;
        for (;;) {
          const claimed = await this.batches.claimDue(new Date(this.now()), CLAIM_LEASE_MS, CLAIM_BATCH);
          for (const batch of claimed) await this.sendBatch(batch).catch(this.onError);
          if (claimed.length < CLAIM_BATCH) break;
        }
      } while (this.sendAgain);
    })().finally(() => (this.sending = undefined));
    return this.sending;
  }

  private async sendBatch(batch: ClaimedBatch): Promise<void> {
    const { userId, kind } = batch;
    const content = await this.batches.contentOf(userId, kind, DIGEST_LISTED);
    const now = () => new Date(this.now());
    // Nobody to write to (the person was disabled since), or nothing left: the batch is settled unsent.
    if (batch.disabled || content.total === 0) {
      await this.batches.settle(userId, kind, content.lastId, now(), this.options.windowMs, false);
      return;
    }
    try {
      await this.mail.send({ to: batch.email, ...this.compose(kind, content) });
    } catch (err) {
      await this.sendFailed(batch, content, errorText(err));
      return;
    }
    await this.batches.settle(userId, kind, content.lastId, now(), this.options.windowMs, true);
    await this.failures.delivered(userId, 'email');
  }

  private async sendFailed(batch: ClaimedBatch, content: BatchContent, error: string): Promise<void> {
    const { userId, kind } = batch;
    const attempts = batch.attempts + 1;
    const now = new Date(this.now());
    if (attempts >= MAX_ATTEMPTS) {
      await this.batches.settle(userId, kind, content.lastId, now, this.options.windowMs, false);
      await this.failures.failed(
        userId,
        'email',
        `${error} After ${MAX_ATTEMPTS} tries, ${content.total === 1 ? '1 alert' : `${content.total} alerts`} of kind "${ALERT_KIND_LABELS[kind]}" were not e-mailed: they are in the console.`,
      );
      return;
    }
    const retryAt = new Date(now.getTime() + retryDelayMs(attempts));
    await this.batches.failed(userId, kind, attempts, retryAt, error);
    if (attempts >= FAILURES_BEFORE_ALERT) {
      await this.failures.failed(
        userId,
        'email',
        `${error} ${attempts} tries failed; the next is at ${timeOf(retryAt)}, and your alerts are in the console meanwhile.`,
      );
    }
  }

  /** The e-mail of a batch: one alert in its own words, several as a digest (plain text). */
  private compose(kind: AlertKind, { listed, total }: BatchContent): { subject: string; text: string } {
    const path = `/dashboard/alerts?kind=${kind}`;
    const link = this.options.publicUrl ? `${this.options.publicUrl}${path}` : `Dashboard > Alerts (${path})`;
    const footer = (open: string) => [
      '',
      `${open} in Guardian: ${link}`,
      '',
      'You get this e-mail because of your notification settings; change them on your profile in Guardian.',
    ];
    if (total === 1) {
      const [alert] = listed;
      return {
        subject: `Guardian: ${alert!.title}`.slice(0, 200),
        text: [
          alert!.title,
          '',
          `Severity: ${alert!.severity}; raised ${timeOf(alert!.raisedAt)}.`,
          ...footer('Open it'),
        ].join('\n'),
      };
    }
    const minutes = Math.round(this.options.windowMs / 60_000);
    return {
      subject: `Guardian: ${total} new alerts: ${ALERT_KIND_LABELS[kind]}`,
      text: [
        `${total} new alerts of kind "${ALERT_KIND_LABELS[kind]}" since the last e-mail of this kind (at most one every ${minutes === 0 ? `${Math.round(this.options.windowMs / 1000)} seconds` : `${minutes} minutes`}):`,
        '',
        ...listed.map((alert) => `- [${alert.severity}] ${alert.title} (${timeOf(alert.raisedAt)})`),
        ...(total > listed.length ? [`and ${total - listed.length} more`] : []),
        ...footer('Open them'),
      ].join('\n'),
    };
  }
}
