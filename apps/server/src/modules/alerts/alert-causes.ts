import {
  JOB_KIND_LABELS,
  LIST_PLAN_NAMES,
  type AccountCapacity,
  type AlertKind,
  type AlertSeverity,
  type AlertSubject,
  type JobKind,
} from '@guardian/contract';
import type { Queryable } from '../../db';
import { valueOf, type Live } from '../../live-setting';
import { PeriodicSweep } from '../../periodic-sweep';
import { AlertsRepository, type AlertCause } from './alerts.repository';

/** A job as it ended, as the queue tells of it (jobs/jobs.repository.ts JobRecord). */
export interface EndedJob {
  kind: string;
  userId: number;
  accountId: number | null;
  accountName: string | null;
  target: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  error: string | null;
}

/** An account's token as the token check found it (accounts/token-checks.ts). */
export interface CheckedToken {
  /** Guardian's id of the account. */
  id: number;
  userId: number;
  accountName: string;
  status: 'active' | 'disabled' | 'expired' | 'revoked';
  expiresOn: Date | null;
}

/** A ban list, as an add names it. */
export interface BannedList {
  listId: string;
  listName: string;
  accountName: string;
}

/** A support ticket, as its alerts name it (modules/tickets). */
export interface TicketRef {
  id: number;
  subject: string;
}

/**
 * A new alert (its cause's first raise, not a count on a live one), as it is handed to whoever tells
 * the person beyond the console (services.ts wires modules/notifications).
 */
export interface RaisedAlert {
  alertId: number;
  userId: number;
  kind: AlertKind;
  severity: AlertSeverity;
  title: string;
  subject: AlertSubject | null;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
}

/** The channels a notification goes by, as a failing one's alert names it. */
const CHANNEL_NAMES: Record<string, string> = { email: 'e-mail', webhook: 'webhook' };

/** An account's Lists use, as the capacity sweep reads it (ban-list-mirror/list-capacity.ts). */
export interface AccountUse {
  /** Guardian's id of the account. */
  ref: number;
  userId: number;
  capacity: AccountCapacity;
}

/** A read of accounts' Lists use, after Guardian's id `afterRef`, at most `limit`, in id order. */
export type AccountUses = (afterRef: number, limit: number) => Promise<AccountUse[]>;

/** Past this share of a quota an account's alert is raised; below it, it resolves by itself. */
export const CAPACITY_THRESHOLD = 0.85;
/** How often each process reads every account's Lists use. */
export const CAPACITY_SWEEP_MS = 60_000;
/** Accounts read per statement of the sweep. */
const CAPACITY_BATCH = 500;
/** How often each process deletes the resolved alerts past their retention, and at most how many a statement. */
const RETENTION_SWEEP_MS = 3_600_000;
const RETENTION_BATCH = 10_000;

const DAY_MS = 86_400_000;
/** The expiry warnings, nearest first: within 1 day critical, 7 days a warning, 30 days information. */
const EXPIRY_STEPS: readonly { days: number; severity: AlertSeverity }[] = [
  { days: 1, severity: 'critical' },
  { days: 7, severity: 'warning' },
  { days: 30, severity: 'info' },
];

const jobKey = (job: EndedJob) => `job-failed:${job.kind}:${job.accountId ?? '-'}:${job.target}`;
const tokenInvalidKey = (ref: number) => `token-invalid:${ref}`;
const tokenExpiringKey = (ref: number, days: number) => `token-expiring:${ref}:${days}`;
const banKey = (listId: string, value: string) => `ban-refused:${listId}:${value.toLowerCase()}`;
const capacityKey = (ref: number) => `capacity:${ref}`;
const ticketKey = (id: number) => `ticket:${id}`;
const channelKey = (id: number) => `channel-failing:${id}`;
const ticketSubject = (ticket: TicketRef) => ({
  type: 'ticket' as const,
  id: String(ticket.id),
  name: ticket.subject,
});
const percent = (used: number, limit: number) => Math.floor((used / limit) * 100);
const count = (value: number) => value.toLocaleString('en-US');

/**
 * Where each kind of alert is raised and resolved by itself: the code where a cause happens calls one
 * of these (given to it by services.ts as a plain function, so no module imports this one). A cause
 * that could not be recorded is logged, never the failure of what it happened in.
 */
export class AlertCauses {
  private readonly alerts: AlertsRepository;
  private readonly capacitySweep: PeriodicSweep | undefined;
  private readonly retentionSweep: PeriodicSweep | undefined;
  private newAlertListener: ((alert: RaisedAlert) => void) | undefined;

  constructor(
    db: Queryable,
    private readonly onError: (err: unknown) => void,
    private readonly accountUses?: AccountUses,
    capacitySweepMs = CAPACITY_SWEEP_MS,
    /** How long a resolved alert is kept (System Setting); unset, kept for ever. */
    private readonly resolvedRetentionMs?: Live<number>,
  ) {
    this.alerts = new AlertsRepository(db);
    this.capacitySweep = accountUses
      ? new PeriodicSweep(() => this.sweepCapacity(), capacitySweepMs, onError)
      : undefined;
    this.retentionSweep =
      resolvedRetentionMs === undefined
        ? undefined
        : new PeriodicSweep(() => this.sweepResolved(), RETENTION_SWEEP_MS, onError);
  }

  start(): void {
    this.capacitySweep?.start();
    this.retentionSweep?.start();
  }

  async stop(): Promise<void> {
    await this.capacitySweep?.stop();
    await this.retentionSweep?.stop();
  }

  /** Deletes the alerts resolved longer ago than their retention, a batch a statement; answers how many. */
  async sweepResolved(): Promise<number> {
    if (this.resolvedRetentionMs === undefined) return 0;
    let deleted = 0;
    for (;;) {
      const batch = await this.alerts.deleteResolved(valueOf(this.resolvedRetentionMs), RETENTION_BATCH);
      deleted += batch;
      if (batch < RETENTION_BATCH) return deleted;
    }
  }

  private async safely(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.onError(err);
    }
  }

  /**
   * Who is told of each new alert (the notifications' dispatch): called as the alert is recorded, it
   * must return at once (it records and delivers in the background).
   */
  onNewAlert(listener: (alert: RaisedAlert) => void): void {
    this.newAlertListener = listener;
  }

  private async raise(cause: AlertCause): Promise<void> {
    const raised = await this.alerts.raise(cause);
    if (!raised.created || !this.newAlertListener) return;
    try {
      this.newAlertListener({
        alertId: raised.id,
        userId: cause.userId,
        kind: cause.kind,
        severity: cause.severity,
        title: cause.title,
        subject: cause.subject ?? null,
        count: raised.count,
        firstSeen: raised.firstSeen,
        lastSeen: raised.lastSeen,
      });
    } catch (err) {
      this.onError(err);
    }
  }

  /**
   * A channel could not tell the person of their alerts, again and again: its own alert (console
   * only: the notifications never send this kind, so a failing channel cannot loop).
   */
  readonly notificationFailed = (userId: number, channel: string, detail: string): Promise<void> =>
    this.safely(() =>
      this.raise({
        userId,
        kind: 'notification-failed',
        severity: 'warning',
        key: `notification-failed:${channel}`,
        title: `Guardian could not send your alerts by ${CHANNEL_NAMES[channel] ?? channel}: ${detail}`,
      }),
    );

  /** A later notification by the channel went through: its failure alert resolves by itself. */
  readonly notificationDelivered = (userId: number, channel: string): Promise<void> =>
    this.safely(() => this.alerts.clear(userId, [`notification-failed:${channel}`]));

  /** A job failed (raised), or a later one of the same kind and target succeeded (resolved). */
  readonly jobEnded = (job: EndedJob): Promise<void> =>
    this.safely(async () => {
      if (job.state === 'succeeded') return this.alerts.clear(job.userId, [jobKey(job)]);
      if (job.state !== 'failed') return;
      const label = JOB_KIND_LABELS[job.kind as JobKind] ?? job.kind;
      return this.raise({
        userId: job.userId,
        kind: 'job-failed',
        severity: 'warning',
        key: jobKey(job),
        title: `${label} of ${job.target} failed: ${job.error ?? 'no reason given'}`,
        subject:
          job.accountId === null
            ? null
            : { type: 'account', id: String(job.accountId), name: job.accountName ?? '' },
      });
    });

  /**
   * What Cloudflare said of an account's token: not active raises "not valid" (critical); active
   * resolves it, and raises the nearest expiry warning (30 / 7 / 1 days) while resolving the others.
   */
  readonly tokenChecked = (token: CheckedToken, now = new Date()): Promise<void> =>
    this.safely(async () => {
      const subject = { type: 'token' as const, id: String(token.id), name: token.accountName };
      const expiringKeys = EXPIRY_STEPS.map((step) => tokenExpiringKey(token.id, step.days));
      if (token.status !== 'active') {
        await this.alerts.clear(token.userId, expiringKeys);
        await this.raise({
          userId: token.userId,
          kind: 'token-invalid',
          severity: 'critical',
          key: tokenInvalidKey(token.id),
          title: `The API token of account ${token.accountName} is ${token.status} at Cloudflare: Guardian can no longer act on the account.`,
          subject,
        });
        return;
      }
      await this.alerts.clear(token.userId, [tokenInvalidKey(token.id)]);
      const left = token.expiresOn ? token.expiresOn.getTime() - now.getTime() : Infinity;
      const step = EXPIRY_STEPS.find((candidate) => left <= candidate.days * DAY_MS);
      const keep = step ? tokenExpiringKey(token.id, step.days) : undefined;
      await this.alerts.clear(
        token.userId,
        expiringKeys.filter((key) => key !== keep),
      );
      if (!step || !token.expiresOn) return;
      await this.raise({
        userId: token.userId,
        kind: 'token-expiring',
        severity: step.severity,
        key: keep!,
        title: `The API token of account ${token.accountName} expires within ${step.days === 1 ? '1 day' : `${step.days} days`} (${token.expiresOn.toISOString().slice(0, 16).replace('T', ' ')} UTC): replace it on the accounts page.`,
        subject,
      });
    });

  /** Cloudflare refused to add a value to a list. */
  readonly banRefused = (userId: number, list: BannedList, value: string, reason: string): Promise<void> =>
    this.safely(() =>
      this.raise({
        userId,
        kind: 'ban-refused',
        severity: 'warning',
        key: banKey(list.listId, value),
        title: `${value} was not added to ${list.listName} (account ${list.accountName}): Cloudflare refused it: ${reason}`,
        subject: { type: 'list', id: list.listId, name: list.listName },
      }),
    );

  /** The value is in the list now: an alert of its refusal resolves by itself. */
  readonly banApplied = (userId: number, listId: string, value: string): Promise<void> =>
    this.safely(() => this.alerts.clear(userId, [banKey(listId, value)]));

  /** Reads every account's Lists use, a batch at a time: past the threshold raises, below it resolves. */
  async sweepCapacity(): Promise<void> {
    if (!this.accountUses) return;
    let after = 0;
    for (;;) {
      const batch = await this.accountUses(after, CAPACITY_BATCH);
      for (const use of batch) await this.safely(() => this.capacityOf(use));
      if (batch.length < CAPACITY_BATCH) return;
      after = batch.at(-1)!.ref;
    }
  }

  private async capacityOf({ ref, userId, capacity }: AccountUse): Promise<void> {
    const { lists, items } = capacity;
    const over = [
      // A Free plan's one list is its design, not a warning: only its items quota raises.
      lists.limit > 1 && lists.used > CAPACITY_THRESHOLD * lists.limit
        ? { what: 'lists', ...lists }
        : undefined,
      items.used > CAPACITY_THRESHOLD * items.limit ? { what: 'list items', ...items } : undefined,
    ].filter((entry) => entry !== undefined);
    if (over.length === 0) {
      await this.alerts.clear(userId, [capacityKey(ref)]);
      return;
    }
    const full = over.some((entry) => entry.used >= entry.limit);
    const uses = over
      .map(
        (entry) =>
          `${count(entry.used)} of ${count(entry.limit)} ${entry.what} (${percent(entry.used, entry.limit)}%)`,
      )
      .join(' and ');
    // Raised again only when the words change: a sweep a minute must not count up an unchanged use.
    const live = await this.alerts.liveTitle(userId, capacityKey(ref));
    const title = `Account ${capacity.account_name} uses ${uses} of its ${LIST_PLAN_NAMES[capacity.plan]} plan.`;
    if (live === title) return;
    await this.raise({
      userId,
      kind: 'capacity',
      severity: full ? 'critical' : 'warning',
      key: capacityKey(ref),
      title,
      subject: { type: 'account', id: capacity.account_id, name: capacity.account_name },
    });
  }

  /**
   * A server's ban refused by its group's policy (the allowlist, the ceiling): one alert per server
   * and reason, counting up while it is open, its title the latest refusal.
   */
  readonly serverRefused = (
    userId: number,
    server: { id: number; name: string },
    reason: 'allowlist' | 'ceiling',
    detail: string,
  ): Promise<void> =>
    this.safely(() =>
      this.raise({
        userId,
        kind: 'server-refused',
        severity: 'warning',
        key: `server-refused:${server.id}:${reason}`,
        title: `A ban from server "${server.name}" was refused (${reason === 'allowlist' ? 'on the allowlist' : 'over the ceiling'}): ${detail}`,
        subject: { type: 'server', id: String(server.id), name: server.name },
      }),
    );

  /**
   * A notification channel keeps failing (a delivery failed every attempt): each of `adminIds` is told
   * in the console (never through the channels: a failing one would not carry it).
   */
  readonly channelFailing = (
    adminIds: readonly number[],
    channel: { id: number; name: string },
    detail: string,
  ): Promise<void> =>
    this.safely(async () => {
      const title = `Notification channel "${channel.name}" keeps failing: ${detail}`;
      for (const userId of adminIds) {
        await this.raise({
          userId,
          kind: 'channel-failing',
          severity: 'warning',
          key: channelKey(channel.id),
          title,
        });
      }
    });

  /** The channel delivered again: its failing alerts resolve by themselves. */
  readonly channelDelivered = (adminIds: readonly number[], channelId: number): Promise<void> =>
    this.safely(async () => {
      for (const userId of adminIds) await this.alerts.clear(userId, [channelKey(channelId)]);
    });

  /** An administrator reset the person's two-factor sign-in. */
  readonly twoFactorReset = (userId: number): Promise<void> =>
    this.safely(() =>
      this.raise({
        userId,
        kind: 'two-factor-reset',
        severity: 'critical',
        key: 'two-factor-reset',
        title:
          'Your two-factor sign-in was reset by an administrator: your password alone signs you in until you turn it on again on your profile.',
      }),
    );

  /** A new API key of the person's. */
  readonly apiKeyCreated = (
    userId: number,
    key: { id: number; name: string; access: string },
  ): Promise<void> =>
    this.safely(() =>
      this.raise({
        userId,
        kind: 'api-key-created',
        severity: 'info',
        key: `api-key-created:${key.id}`,
        title: `A new API key "${key.name}" (${key.access} access) was created: if it was not you, revoke it on your profile.`,
      }),
    );

  /** A sign-in opened a session: from an address the person never signed in from, an alert. */
  readonly signedIn = (userId: number, address: string): Promise<void> =>
    this.safely(async () => {
      if (!(await this.alerts.signedInFrom(userId, address))) return;
      await this.raise({
        userId,
        kind: 'new-sign-in-address',
        severity: 'warning',
        key: `new-sign-in-address:${address}`,
        title: `You signed in from a new address, ${address}: if it was not you, change your password.`,
      });
    });

  /** Support answered the person's ticket: one alert per ticket, counting the replies until they read it. */
  readonly ticketReplied = (userId: number, ticket: TicketRef): Promise<void> =>
    this.safely(() =>
      this.raise({
        userId,
        kind: 'ticket-replied',
        severity: 'info',
        key: ticketKey(ticket.id),
        title: `Support answered your ticket "${ticket.subject}".`,
        subject: ticketSubject(ticket),
      }),
    );

  /** The person read their ticket (or closed it): its reply alert resolves by itself. */
  readonly ticketRead = (userId: number, ticketId: number): Promise<void> =>
    this.safely(() => this.alerts.clear(userId, [ticketKey(ticketId)]));

  /** A ticket waits for support (opened, or its person wrote again): each of `adminIds` is told. */
  readonly ticketWaiting = (adminIds: readonly number[], ticket: TicketRef, from: string): Promise<void> =>
    this.safely(async () => {
      for (const userId of adminIds) {
        await this.raise({
          userId,
          kind: 'ticket-waiting',
          severity: 'info',
          key: ticketKey(ticket.id),
          title: `${from} waits for an answer to ticket "${ticket.subject}".`,
          subject: ticketSubject(ticket),
        });
      }
    });

  /** Support answered or closed the ticket: the administrators' alerts of it resolve by themselves. */
  readonly ticketAnswered = (adminIds: readonly number[], ticketId: number): Promise<void> =>
    this.safely(async () => {
      for (const userId of adminIds) await this.alerts.clear(userId, [ticketKey(ticketId)]);
    });
}
