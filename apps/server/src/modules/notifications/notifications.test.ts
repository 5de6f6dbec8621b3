import type { AlertsPage, NotificationPreferences, Ticket } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppDeps } from '../../app';
import { createServices } from '../../services';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';
import { freePort } from '../../test/free-port';
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from '../../test/smtp-inbox';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import { FAILURES_BEFORE_ALERT, retryDelayMs } from './notification-dispatch';

const WINDOW_MS = 15 * 60_000;
const PREFERENCES = '/api/me/notifications';

/**
 * Notifications through the real parts: alerts raised by AlertCauses (as their causes raise them),
 * e-mail through nodemailer to a real SMTP server on a loopback port, two "processes" (services built
 * twice on one database). Time is the dispatch's injected clock: a test moves it, never sleeps.
 */
describe('Notifications', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let inbox: SmtpInbox;
  let clock = Date.parse('2026-11-29T10:00:00Z');
  const processes: ReturnType<typeof createServices>[] = [];
  let keyCounter = 0;

  const config = () => ctx.config;
  /** Another server process on the same database: its own dispatch, settings read from the database. */
  const newProcess = async () => {
    const services = createServices(
      config(),
      createAppDeps(config(), ctx.db, { notificationClock: () => clock }),
    );
    await services.systemSettings.refresh();
    processes.push(services);
    return services;
  };
  const call = (who: TestUser, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const setSmtp = async (port: number) => {
    const saved = await call(admin, 'PUT', '/api/admin/settings', {
      smtp_host: '127.0.0.1',
      smtp_port: port,
      smtp_tls: 'none',
      smtp_sender: 'Guardian <guardian@example.com>',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    for (const services of processes) await services.systemSettings.refresh();
  };
  /** A new API key's alert, raised as ApiKeysService raises it. */
  const newKeyAlert = async (services: ReturnType<typeof createServices>, who: TestUser) => {
    keyCounter += 1;
    await services.alertCauses.apiKeyCreated(who.id, {
      id: keyCounter,
      name: `key ${keyCounter}`,
      access: 'read',
    });
    return `"key ${keyCounter}"`;
  };
  const mailTo = (who: TestUser) => inbox.messages.filter((mail) => mail.to.includes(who.email));
  const heldCount = async (who: TestUser) =>
    (
      await ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM notification_mail_held WHERE user_id = $1',
        [who.id],
      )
    )[0]!.n;

  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        // The period sweep is left to the test (it calls sendDue): an hour never comes within a test.
        notifications: {
          mailWindowMs: WINDOW_MS,
          mailSweepMs: 3_600_000,
        },
        publicUrl: 'https://guardian.example',
      },
      deps: { notificationClock: () => clock },
    });
    admin = await ctx.createUser({ level: 0 });
    inbox = await startSmtpInbox();
  });
  afterAll(async () => {
    for (const services of processes) {
      await services.notificationDispatch.stop();
      await services.systemSettings.stop();
    }
    await inbox?.close();
    await ctx?.close();
  });

  it("answers the person's own preferences, defaults first; saves a change, audited; refuses bad input with 400", async () => {
    const ada = await ctx.createUser();
    const bob = await ctx.createUser();
    const first = await call(ada, 'GET', PREFERENCES);
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json<NotificationPreferences>();
    expect(answer.email_window_minutes).toBe(15);
    expect(answer.preferences.map((entry) => entry.kind)).not.toContain('notification-failed');
    expect(answer.preferences.find((entry) => entry.kind === 'token-invalid')).toEqual({
      kind: 'token-invalid',
      email: true,
      webhook: false,
    });
    expect(answer.preferences.find((entry) => entry.kind === 'server-refused')?.email).toBe(false);

    const saved = await call(ada, 'PUT', PREFERENCES, {
      preferences: [{ kind: 'token-invalid', email: false, webhook: true }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      saved.json<NotificationPreferences>().preferences.find((entry) => entry.kind === 'token-invalid'),
    ).toEqual({ kind: 'token-invalid', email: false, webhook: true });
    // The other kinds kept their defaults; another person's are their own.
    expect((await call(ada, 'GET', PREFERENCES)).json<NotificationPreferences>().preferences).toHaveLength(
      answer.preferences.length,
    );
    expect(
      (await call(bob, 'GET', PREFERENCES))
        .json<NotificationPreferences>()
        .preferences.find((entry) => entry.kind === 'token-invalid'),
    ).toEqual({ kind: 'token-invalid', email: true, webhook: false });
    // Nobody names whose preferences they change: a user id is refused, not obeyed.
    const other = await call(bob, 'PUT', PREFERENCES, {
      user_id: ada.id,
      preferences: [{ kind: 'token-invalid', email: true, webhook: true }],
    });
    expect(other.statusCode).toBe(400);
    expect(
      (await call(ada, 'GET', PREFERENCES)).json<NotificationPreferences>().preferences[2],
    ).toMatchObject({
      kind: 'token-invalid',
      email: false,
    });

    const [event] = await ctx.db.query<{ action: string; summary: string }>(
      `SELECT action, summary FROM audit_events WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
      [ada.id],
    );
    expect(event).toMatchObject({ action: 'notifications.update' });
    expect(event!.summary).toContain('changed their notification settings (token-invalid)');

    for (const [body, words] of [
      [{ preferences: [{ kind: 'no-such-kind', email: true, webhook: false }] }, 'Kind must be one of'],
      [{ preferences: [{ kind: 'notification-failed', email: true, webhook: false }] }, 'console only'],
      [{ preferences: [{ kind: 'capacity', email: 'yes', webhook: false }] }, 'E-mail must be true or false'],
      [
        {
          preferences: [
            { kind: 'capacity', email: true, webhook: false },
            { kind: 'capacity', email: false, webhook: false },
          ],
        },
        'Each kind may be given once',
      ],
      [{ preferences: [] }, 'at least one'],
      [{}, 'Preferences must be a list'],
    ] as const) {
      const refused = await call(ada, 'PUT', PREFERENCES, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().message).toContain(words);
    }
  });

  it('holds nothing while SMTP is not set up, and says so', async () => {
    const services = await newProcess();
    const ada = await ctx.createUser();
    expect((await call(ada, 'GET', PREFERENCES)).json<NotificationPreferences>().email_set_up).toBe(false);
    await newKeyAlert(services, ada);
    await services.notificationDispatch.idle();
    expect(await heldCount(ada)).toBe(0);
  });

  it('e-mails the first alert of a kind at once, and the next ones of that kind in one digest when the window ends', async () => {
    await setSmtp(inbox.port);
    const services = await newProcess();
    const ada = await ctx.createUser();
    expect((await call(ada, 'GET', PREFERENCES)).json<NotificationPreferences>().email_set_up).toBe(true);

    const first = await newKeyAlert(services, ada);
    await services.notificationDispatch.idle();
    expect(mailTo(ada)).toHaveLength(1);
    const [mail] = mailTo(ada) as [ReceivedMail];
    expect(mail.subject).toContain(`Guardian: A new API key ${first} (read access) was created`);
    expect(mail.from).toBe('guardian@example.com');
    expect(mail.text).toContain('https://guardian.example/dashboard/alerts?kind=api-key-created');

    const second = await newKeyAlert(services, ada);
    const third = await newKeyAlert(services, ada);
    await services.notificationDispatch.idle();
    expect(mailTo(ada)).toHaveLength(1);
    expect(await heldCount(ada)).toBe(2);
    // Another kind has its own window: its first alert goes at once.
    await services.alertCauses.twoFactorReset(ada.id);
    await services.notificationDispatch.idle();
    expect(mailTo(ada).map((sent) => sent.subject)).toEqual([
      expect.stringContaining(first),
      expect.stringContaining('Guardian: Your two-factor sign-in was reset'),
    ]);

    clock += WINDOW_MS - 1_000;
    await services.notificationDispatch.sendDue();
    expect(mailTo(ada)).toHaveLength(2);
    clock += 1_000;
    await services.notificationDispatch.sendDue();
    expect(mailTo(ada)).toHaveLength(3);
    const digest = mailTo(ada)[2]!;
    expect(digest.subject).toBe('Guardian: 2 new alerts: New API key');
    expect(digest.text).toContain(second);
    expect(digest.text).toContain(third);
    expect(digest.text).not.toContain(first);
    expect(await heldCount(ada)).toBe(0);

    // The digest started a new window: the next alert waits for it, then goes alone.
    const fourth = await newKeyAlert(services, ada);
    await services.notificationDispatch.idle();
    expect(mailTo(ada)).toHaveLength(3);
    clock += WINDOW_MS;
    await services.notificationDispatch.sendDue();
    expect(mailTo(ada)).toHaveLength(4);
    expect(mailTo(ada)[3]!.subject).toContain(fourth);
  });

  it('sends a digest once when two processes sweep at the same moment', async () => {
    const one = await newProcess();
    const two = await newProcess();
    const ada = await ctx.createUser();
    await newKeyAlert(one, ada);
    await one.notificationDispatch.idle();
    expect(mailTo(ada)).toHaveLength(1);
    // Held by both processes, five alerts in all.
    for (let i = 0; i < 3; i++) await newKeyAlert(one, ada);
    for (let i = 0; i < 2; i++) await newKeyAlert(two, ada);
    await Promise.all([one.notificationDispatch.idle(), two.notificationDispatch.idle()]);
    clock += WINDOW_MS;
    await Promise.all([one.notificationDispatch.sendDue(), two.notificationDispatch.sendDue()]);
    await Promise.all([one.notificationDispatch.sendDue(), two.notificationDispatch.sendDue()]);
    expect(mailTo(ada)).toHaveLength(2);
    expect(mailTo(ada)[1]!.subject).toBe('Guardian: 5 new alerts: New API key');
  });

  it('e-mails nothing of a kind the person turned off', async () => {
    const services = await newProcess();
    const ada = await ctx.createUser();
    const off = await call(ada, 'PUT', PREFERENCES, {
      preferences: [{ kind: 'api-key-created', email: false, webhook: false }],
    });
    expect(off.statusCode).toBe(200);
    await newKeyAlert(services, ada);
    await services.notificationDispatch.idle();
    // A kind still on goes, so the one before it was handled (the queue keeps their order).
    await services.alertCauses.twoFactorReset(ada.id);
    await services.notificationDispatch.idle();
    expect(mailTo(ada).map((mail) => mail.subject)).toEqual([
      expect.stringContaining('Guardian: Your two-factor sign-in was reset'),
    ]);
    expect(await heldCount(ada)).toBe(0);
  });

  it('keeps the batch while SMTP is down, retries with backoff, raises notification-failed, and clears it once an e-mail goes', async () => {
    const services = await newProcess();
    const ada = await ctx.createUser();
    await setSmtp(await freePort());
    const title = await newKeyAlert(services, ada);
    await services.notificationDispatch.idle();
    const alertsOf = async () =>
      (await call(ada, 'GET', '/api/alerts?kind=notification-failed')).json<AlertsPage>();
    for (let attempt = 1; attempt < FAILURES_BEFORE_ALERT; attempt++) {
      expect(await heldCount(ada)).toBe(1);
      expect((await alertsOf()).alerts).toEqual([]);
      // Not before its backoff: nothing is tried.
      clock += retryDelayMs(attempt) - 1_000;
      await services.notificationDispatch.sendDue();
      const [batch] = await ctx.db.query<{ attempts: number }>(
        'SELECT attempts FROM notification_mail_batches WHERE user_id = $1',
        [ada.id],
      );
      expect(batch!.attempts).toBe(attempt);
      clock += 1_000;
      await services.notificationDispatch.sendDue();
    }
    const [failed] = (await alertsOf()).alerts;
    expect(failed).toMatchObject({ kind: 'notification-failed', state: 'open' });
    expect(failed!.title).toContain('Guardian could not send your alerts by e-mail: The e-mail was not sent');
    expect(failed!.title).toContain('could not be reached');
    expect(mailTo(ada)).toHaveLength(0);
    expect(await heldCount(ada)).toBe(1);

    await setSmtp(inbox.port);
    clock += retryDelayMs(FAILURES_BEFORE_ALERT);
    await services.notificationDispatch.sendDue();
    expect(mailTo(ada)).toHaveLength(1);
    expect(mailTo(ada)[0]!.subject).toContain(title);
    expect(await heldCount(ada)).toBe(0);
    expect((await alertsOf()).alerts[0]).toMatchObject({ id: failed!.id, state: 'cleared' });
  });

  it('e-mails the waiting administrators when a ticket is opened, and the person when support answers', async () => {
    const ada = await ctx.createUser();
    const before = inbox.messages.length;
    const opened = await call(ada, 'POST', '/api/support/tickets', {
      subject: 'Lists are slow',
      category: 'question',
      message: 'Why?',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const ticket = opened.json<Ticket>();
    // The app's own dispatch sends these (the real path: a route, TicketNotices, the alert, the e-mail).
    const waiting = (await inbox.waitFor(before + 1)).filter((mail) => mail.to.includes(admin.email));
    expect(waiting.at(-1)!.subject).toBe(
      `Guardian: ${ada.email} waits for an answer to ticket "Lists are slow".`,
    );

    const answeredBefore = inbox.messages.length;
    const answered = await call(admin, 'POST', `/api/admin/tickets/${ticket.id}/replies`, {
      message: 'Looking.',
    });
    expect(answered.statusCode, answered.body).toBe(200);
    await inbox.waitFor(answeredBefore + 1);
    expect(mailTo(ada).at(-1)!.subject).toBe('Guardian: Support answered your ticket "Lists are slow".');
  });

  it("posts a new alert to System Setting's notification channels when its person chose webhook for its kind, and only then", async () => {
    const services = await newProcess();
    const hooks = await startWebhookReceiver();
    const created = await call(admin, 'POST', '/api/admin/notification-channels', {
      name: 'SIEM',
      type: 'webhook',
      webhook_url: hooks.url,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { channel, signing_secret } = created.json<{ channel: { id: number }; signing_secret: string }>();
    hooks.verifyWith(signing_secret);
    try {
      const ada = await ctx.createUser();
      const queued = async () =>
        (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM notification_deliveries'))[0]!.n;
      // Webhook is off by default: nothing is queued for the channels.
      await newKeyAlert(services, ada);
      await services.notificationDispatch.idle();
      expect(await queued()).toBe(0);

      const saved = await call(ada, 'PUT', PREFERENCES, {
        preferences: [{ kind: 'api-key-created', email: false, webhook: true }],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const named = await newKeyAlert(services, ada);
      await services.notificationDispatch.idle();
      await services.webhookChannels.sweep();
      const [post] = await hooks.waitFor(1);
      expect(post!.verified).toBe(true);
      expect(JSON.parse(post!.body)).toMatchObject({
        type: 'alert.raised',
        data: { kind: 'api-key-created', userEmail: ada.email, title: expect.stringContaining(named) },
      });
      expect(hooks.posts).toHaveLength(1);
    } finally {
      await call(admin, 'DELETE', `/api/admin/notification-channels/${channel.id}`);
      await hooks.close();
    }
  });
});
