import type {
  Alert,
  AlertsPage,
  ChannelTestResult,
  CreatedChannel,
  NotificationChannel,
  NotificationChannels,
} from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TokenCipher } from '../../crypto/token-cipher';
import { AlertCauses } from '../alerts';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';
import { freePort } from '../../test/free-port';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import type { AlertNotice } from './alert-notice';
import { NotificationChannelsRepository } from './notification-channels.repository';
import { WebhookChannels } from './webhook-channels';

const CHANNELS = '/api/admin/notification-channels';
const PUBLIC_URL = 'https://guardian.example';

describe('Notification channels', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let person: TestUser;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (path?: string) => {
    const started = await startWebhookReceiver(path);
    receivers.push(started);
    return started;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ config: { publicUrl: PUBLIC_URL } });
    admin = await ctx.createUser({ level: 0 });
    otherAdmin = await ctx.createUser({ level: 0 });
    person = await ctx.createUser();
  });
  afterEach(async () => {
    await ctx.db.query('DELETE FROM notification_channels');
  });
  afterAll(async () => {
    await Promise.all(receivers.map((started) => started.close()));
    await ctx?.close();
  });

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const create = async (body: object) => {
    const answer = await call(admin, 'POST', CHANNELS, body);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<CreatedChannel>();
  };
  const alertsOf = async (who: TestUser) =>
    (await call(who, 'GET', '/api/alerts?kind=channel-failing')).json<AlertsPage>().alerts;

  /**
   * A delivery worker of its own on the test's database, its clock in 2100: the app's own sweep (real
   * time) never finds these deliveries due, so only this one posts them, when the test says.
   */
  const worker = (
    options: { retryDelaysMs?: number[]; timeoutMs?: number; queuedPerChannel?: number } = {},
  ) => {
    let now = new Date('2100-01-01T00:00:00Z');
    const alertCauses = new AlertCauses(ctx.db, (err) => {
      throw err;
    });
    const channels = new WebhookChannels(
      new NotificationChannelsRepository(ctx.db),
      new TokenCipher(ctx.config.encryptionKey),
      { failing: alertCauses.channelFailing, delivered: alertCauses.channelDelivered },
      (err) => {
        throw err;
      },
      { publicUrl: PUBLIC_URL, loopbackHttp: true, now: () => now, sweepOnDeliver: false, ...options },
    );
    return {
      channels,
      advance: (ms: number) => void (now = new Date(now.getTime() + ms)),
      now: () => now,
    };
  };

  const notice = (overrides: Partial<AlertNotice> = {}): AlertNotice => ({
    alertId: 41,
    userId: person.id,
    userEmail: person.email,
    kind: 'ban-refused',
    severity: 'warning',
    title: '203.0.113.7 was not added to block_list (account Acme): Cloudflare refused it',
    subject: { type: 'list', id: 'list-1', name: 'block_list' },
    count: 1,
    firstSeen: '2026-11-29T10:00:00.000Z',
    lastSeen: '2026-11-29T10:00:00.000Z',
    path: '/dashboard/alerts',
    ...overrides,
  });

  it('is for administrators only: a person gets 403 on every route', async () => {
    const { channel } = await create({
      name: 'Ops',
      type: 'slack',
      webhook_url: 'https://hooks.slack.com/services/T0/B0/abcdefgh',
    });
    expect((await call(person, 'GET', CHANNELS)).statusCode).toBe(403);
    expect(
      (await call(person, 'POST', CHANNELS, { name: 'x', type: 'slack', webhook_url: 'https://a.example/x' }))
        .statusCode,
    ).toBe(403);
    expect((await call(person, 'PUT', `${CHANNELS}/${channel.id}`, { enabled: false })).statusCode).toBe(403);
    expect((await call(person, 'DELETE', `${CHANNELS}/${channel.id}`)).statusCode).toBe(403);
    expect((await call(person, 'POST', `${CHANNELS}/${channel.id}/test`)).statusCode).toBe(403);
    expect((await call(admin, 'GET', CHANNELS)).json<NotificationChannels>().channels).toHaveLength(1);
  });

  it('refuses a bad URL, type or name with a 400 in words, and adds nothing', async () => {
    const refused = async (body: object, words: string) => {
      const answer = await call(admin, 'POST', CHANNELS, body);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().message).toContain(words);
    };
    const base = { name: 'Ops', type: 'webhook', webhook_url: 'https://receiver.example/hook' };
    await refused({ ...base, webhook_url: 'http://receiver.example/hook' }, 'must be an https:// address');
    await refused({ ...base, webhook_url: 'ftp://receiver.example/hook' }, 'https:// address');
    await refused({ ...base, webhook_url: 'not a url' }, 'https:// address');
    await refused({ ...base, webhook_url: 'https://user:pw@receiver.example/' }, 'user name or password');
    await refused(
      { ...base, webhook_url: `https://receiver.example/${'a'.repeat(2_000)}` },
      'at most 2000 characters',
    );
    await refused({ ...base, type: 'pagerduty' }, 'The type must be one of webhook, slack, teams, discord.');
    await refused({ ...base, name: '' }, 'Enter a name for the channel.');
    await refused({ ...base, name: 'x'.repeat(101) }, 'at most 100 characters');
    expect((await call(admin, 'GET', CHANNELS)).json<NotificationChannels>().channels).toEqual([]);
  });

  it('keeps URLs and the signing secret encrypted, shows them masked, and answers the secret once', async () => {
    const slackUrl = 'https://hooks.slack.com/services/T000/B000/XXXXsecretpartZZ9x';
    const slack = await create({ name: 'Ops Slack', type: 'slack', webhook_url: slackUrl });
    expect(slack.signing_secret).toBeNull();
    expect(slack.channel).toMatchObject({
      type: 'slack',
      url_masked: 'https://hooks.slack.com/****ZZ9x',
      signed: false,
    });
    const hook = await create({
      name: 'SIEM',
      type: 'webhook',
      webhook_url: 'https://siem.example/in?token=abc123',
    });
    expect(hook.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(hook.channel.signed).toBe(true);

    const listed = await call(admin, 'GET', CHANNELS);
    expect(listed.body).not.toContain('secretpart');
    expect(listed.body).not.toContain('abc123');
    expect(listed.body).not.toContain(hook.signing_secret!.slice(6));
    expect(listed.json<NotificationChannels>()).toMatchObject({ limit: 20 });
    const rows = await ctx.db.query<{ url_encrypted: string; signing_secret_encrypted: string | null }>(
      'SELECT url_encrypted, signing_secret_encrypted FROM notification_channels ORDER BY id',
    );
    expect(JSON.stringify(rows)).not.toContain('secretpart');
    expect(JSON.stringify(rows)).not.toContain(hook.signing_secret!.slice(6));
    expect(rows.every((row) => row.url_encrypted.startsWith('v1:'))).toBe(true);

    // The audit trail has the change, without the URL.
    const events = await ctx.db.query<{ action: string; target: unknown; summary: string }>(
      `SELECT action, target, summary FROM audit_events
       WHERE action LIKE 'notificationChannels.%' AND target->>'name' IN ('Ops Slack', 'SIEM') ORDER BY id`,
    );
    expect(events.map((event) => event.action)).toEqual([
      'notificationChannels.create',
      'notificationChannels.create',
    ]);
    expect(events[0]!.summary).toContain('added notification channel "Ops Slack"');
    expect(JSON.stringify(events)).not.toContain('secretpart');
    expect(events[0]!.target).toMatchObject({
      webhook_url: '[redacted]',
      url_masked: 'https://hooks.slack.com/****ZZ9x',
    });

    // A change of the URL: masked anew; a change of name only keeps it.
    const changed = await call(admin, 'PUT', `${CHANNELS}/${slack.channel.id}`, {
      webhook_url: 'https://hooks.slack.com/services/T000/B000/newsecretQQ77',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<NotificationChannel>().url_masked).toBe('https://hooks.slack.com/****QQ77');
    expect(changed.body).not.toContain('newsecret');
    const renamed = await call(admin, 'PUT', `${CHANNELS}/${slack.channel.id}`, {
      name: 'Ops',
      enabled: false,
    });
    expect(renamed.json<NotificationChannel>()).toMatchObject({
      name: 'Ops',
      enabled: false,
      url_masked: 'https://hooks.slack.com/****QQ77',
    });
    expect((await call(admin, 'PUT', `${CHANNELS}/999999`, { name: 'x' })).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${CHANNELS}/${slack.channel.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'DELETE', `${CHANNELS}/${slack.channel.id}`)).statusCode).toBe(404);
  });

  it('holds at most 20 channels', async () => {
    for (let i = 0; i < 20; i++)
      await create({
        name: `Channel ${i}`,
        type: 'discord',
        webhook_url: `https://discord.example/api/webhooks/${i}/x`,
      });
    const refused = await call(admin, 'POST', CHANNELS, {
      name: 'One more',
      type: 'discord',
      webhook_url: 'https://discord.example/api/webhooks/21/x',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('20 notification channels already');
  });

  it('sends a test now: the receiver verifies the signature, and its answer is shown', async () => {
    const hooks = await receiver();
    const { channel, signing_secret } = await create({
      name: 'SIEM',
      type: 'webhook',
      webhook_url: hooks.url,
    });
    hooks.verifyWith(signing_secret!);
    hooks.answer({ status: 202, body: 'queued as 7781' });
    const sent = await call(admin, 'POST', `${CHANNELS}/${channel.id}/test`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<ChannelTestResult>()).toEqual({
      status: 202,
      answer: `127.0.0.1:${hooks.port} answered 202: queued as 7781`,
    });
    expect(hooks.posts).toHaveLength(1);
    expect(hooks.posts[0]!.verified, hooks.posts[0]!.verifyError).toBe(true);
    expect(JSON.parse(hooks.posts[0]!.body)).toMatchObject({
      type: 'channel.test',
      data: { channel: 'SIEM', sent_by: admin.email },
    });
    expect(hooks.posts[0]!.body).not.toContain('whsec_');
    // Signed with another secret, the receiver refuses it: the check above is not a formality.
    hooks.verifyWith(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    await call(admin, 'POST', `${CHANNELS}/${channel.id}/test`);
    expect(hooks.posts[1]!.verified).toBe(false);

    const listed = (await call(admin, 'GET', CHANNELS)).json<NotificationChannels>().channels[0]!;
    expect(listed.last_delivery).toMatchObject({ ok: true, status: 202 });
  });

  it('answers a test that failed with a 409 in words: non-2xx with its status, unreachable, a redirect', async () => {
    const hooks = await receiver();
    const { channel } = await create({ name: 'Slack', type: 'slack', webhook_url: hooks.url });
    hooks.answer({ status: 500, body: 'internal trouble' });
    const failed = await call(admin, 'POST', `${CHANNELS}/${channel.id}/test`);
    expect(failed.statusCode).toBe(409);
    expect(failed.json().message).toBe(
      `The test message was not delivered: 127.0.0.1:${hooks.port} answered 500: internal trouble`,
    );
    hooks.answer({ status: 302, location: 'https://elsewhere.example/' });
    const moved = await call(admin, 'POST', `${CHANNELS}/${channel.id}/test`);
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toContain(
      'answered 302, a redirect to https://elsewhere.example/: redirects are not followed',
    );

    const port = await freePort();
    const down = await create({ name: 'Down', type: 'discord', webhook_url: `http://127.0.0.1:${port}/x` });
    const unreachable = await call(admin, 'POST', `${CHANNELS}/${down.channel.id}/test`);
    expect(unreachable.statusCode).toBe(409);
    expect(unreachable.json().message).toContain(
      `127.0.0.1:${port} could not be reached: the connection was refused.`,
    );
    const listed = (await call(admin, 'GET', CHANNELS)).json<NotificationChannels>().channels;
    expect(listed.find((entry) => entry.id === down.channel.id)).toMatchObject({
      failing_count: 1,
      last_delivery: { ok: false, status: null },
    });
  });

  it('bounds a post by its timeout', async () => {
    const hooks = await receiver();
    const { channel } = await create({ name: 'Slow', type: 'slack', webhook_url: hooks.url });
    hooks.answer({ status: 200, delayMs: 5_000 });
    const { channels } = worker({ timeoutMs: 300 });
    const started = Date.now();
    const [row] = await new NotificationChannelsRepository(ctx.db).list();
    const result = await channels.test({ ...row!, id: channel.id }, admin.email);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toEqual({
      ok: false,
      status: null,
      message: `127.0.0.1:${hooks.port} did not answer within 0.3 s.`,
    });
  });

  it('delivers an alert signed, retries a refusal with backoff, then delivers it', async () => {
    const hooks = await receiver();
    const { signing_secret } = await create({ name: 'SIEM', type: 'webhook', webhook_url: hooks.url });
    hooks.verifyWith(signing_secret!);
    const { channels, advance, now } = worker();
    hooks.answer({ status: 500, body: 'down for a deploy' });
    await channels.deliver(notice());
    expect(await channels.sweep()).toBe(1);
    expect(hooks.posts).toHaveLength(1);
    const [waiting] = await ctx.db.query<{ attempts: number; run_after: Date }>(
      'SELECT attempts, run_after FROM notification_deliveries',
    );
    expect(waiting!.attempts).toBe(1);
    expect(new Date(waiting!.run_after).getTime() - now().getTime()).toBe(30_000);

    // Not before its time; then again, and again after 2 minutes.
    advance(29_000);
    expect(await channels.sweep()).toBe(0);
    advance(1_000);
    expect(await channels.sweep()).toBe(1);
    advance(119_000);
    expect(await channels.sweep()).toBe(0);
    hooks.answer({ status: 204 });
    advance(1_000);
    expect(await channels.sweep()).toBe(1);
    expect(hooks.posts).toHaveLength(3);
    expect(hooks.posts.every((post) => post.verified)).toBe(true);
    // The same message every time, so a receiver can drop a repeat.
    expect(new Set(hooks.posts.map((post) => post.headers['webhook-id'])).size).toBe(1);
    const body = JSON.parse(hooks.posts[2]!.body);
    expect(body).toMatchObject({
      type: 'alert.raised',
      data: { ...notice(), url: `${PUBLIC_URL}/dashboard/alerts` },
    });
    expect(await ctx.db.query('SELECT 1 FROM notification_deliveries')).toHaveLength(0);
    const [listed] = (await call(admin, 'GET', CHANNELS)).json<NotificationChannels>().channels;
    expect(listed).toMatchObject({
      failing_count: 0,
      queued: 0,
      dropped: 0,
      last_delivery: { ok: true, status: 204 },
    });
  });

  it('returns from deliver at once; the delivery is posted in the background', async () => {
    const hooks = await receiver();
    const { signing_secret } = await create({ name: 'SIEM', type: 'webhook', webhook_url: hooks.url });
    hooks.verifyWith(signing_secret!);
    hooks.answer({ status: 200, delayMs: 1_500 });
    const channels = new WebhookChannels(
      new NotificationChannelsRepository(ctx.db),
      new TokenCipher(ctx.config.encryptionKey),
      { failing: async () => {}, delivered: async () => {} },
      (err) => {
        throw err;
      },
      { publicUrl: PUBLIC_URL, loopbackHttp: true },
    );
    const started = Date.now();
    await channels.deliver(notice({ alertId: 99 }));
    expect(Date.now() - started).toBeLessThan(1_000);
    const [post] = await hooks.waitFor(1);
    expect(post!.verified).toBe(true);
    expect(JSON.parse(post!.body).data.alertId).toBe(99);
    await channels.stop();
  });

  it('raises "keeps failing" to every administrator when a receiver is down through all attempts, cleared by a later success', async () => {
    const port = await freePort();
    const { channel } = await create({
      name: 'Pager',
      type: 'webhook',
      webhook_url: `http://127.0.0.1:${port}/hook`,
    });
    const { channels, advance } = worker({ retryDelaysMs: [1_000, 2_000] });
    await channels.deliver(notice());
    expect(await channels.sweep()).toBe(1);
    advance(1_000);
    expect(await channels.sweep()).toBe(1);
    expect(await alertsOf(admin)).toEqual([]);
    advance(2_000);
    expect(await channels.sweep()).toBe(1);
    expect(await ctx.db.query('SELECT 1 FROM notification_deliveries')).toHaveLength(0);
    for (const who of [admin, otherAdmin]) {
      const [alert] = await alertsOf(who);
      expect(alert).toMatchObject({ kind: 'channel-failing', state: 'open', severity: 'warning' });
      expect(alert!.title).toContain(
        'Notification channel "Pager" keeps failing: 3 attempts in a row failed',
      );
      expect(alert!.title).toContain('could not be reached: the connection was refused.');
    }
    expect(await alertsOf(person)).toEqual([]);
    const [listed] = (await call(admin, 'GET', CHANNELS)).json<NotificationChannels>().channels;
    expect(listed).toMatchObject({ failing_count: 3, dropped: 1 });

    // The receiver is back: the next delivery clears the alert.
    const hooks = await receiver();
    expect(
      (await call(admin, 'PUT', `${CHANNELS}/${channel.id}`, { webhook_url: hooks.url })).statusCode,
    ).toBe(200);
    await channels.deliver(notice({ alertId: 42 }));
    expect(await channels.sweep()).toBe(1);
    for (const who of [admin, otherAdmin]) {
      const [alert] = (await call(who, 'GET', '/api/alerts?kind=channel-failing')).json<{ alerts: Alert[] }>()
        .alerts;
      expect(alert).toMatchObject({ state: 'cleared' });
    }

    // Failing again, then deleted: a channel that is gone is not "failing", its alert clears too.
    await hooks.close();
    await channels.deliver(notice({ alertId: 43 }));
    for (const wait of [0, 1_000, 2_000]) {
      advance(wait);
      expect(await channels.sweep()).toBe(1);
    }
    expect((await alertsOf(admin)).map((alert) => alert.state)).toEqual(['open', 'cleared']);
    expect((await call(admin, 'DELETE', `${CHANNELS}/${channel.id}`)).statusCode).toBe(204);
    expect((await alertsOf(admin)).map((alert) => alert.state)).toEqual(['cleared', 'cleared']);
  });

  it('posts Slack, Teams and Discord the bodies those services take, with no secret in them', async () => {
    const hooks = await receiver();
    const slack = await create({ name: 'Slack', type: 'slack', webhook_url: `${hooks.url}/slack` });
    const teams = await create({ name: 'Teams', type: 'teams', webhook_url: `${hooks.url}/teams` });
    const discord = await create({ name: 'Discord', type: 'discord', webhook_url: `${hooks.url}/discord` });
    expect([slack, teams, discord].map((made) => made.signing_secret)).toEqual([null, null, null]);
    const { channels } = worker();
    await channels.deliver(notice({ title: 'Ban <@everyone> & *bold*', severity: 'critical' }));
    expect(await channels.sweep()).toBe(3);
    expect(hooks.posts).toHaveLength(3);
    const bodies = hooks.posts.map((post) => JSON.parse(post.body) as Record<string, unknown>);
    const slackBody = bodies.find((body) => 'text' in body)!;
    expect(Object.keys(slackBody)).toEqual(['text']);
    expect(slackBody.text).toBe(
      `*[Critical] A ban was not applied*\nBan &lt;@everyone&gt; &amp; *bold*\nPerson: ${person.email}\nAbout: list block_list\nSeen once, last at 2026-11-29T10:00:00.000Z\n<${PUBLIC_URL}/dashboard/alerts|Open in Guardian>`,
    );
    const teamsBody = bodies.find((body) => body['@type'] === 'MessageCard')!;
    expect(teamsBody).toMatchObject({
      '@context': 'https://schema.org/extensions',
      themeColor: 'DC2626',
      title: '[Critical] A ban was not applied',
      sections: [{ activityTitle: 'Ban <@everyone> & *bold*' }],
      potentialAction: [
        { '@type': 'OpenUri', targets: [{ os: 'default', uri: `${PUBLIC_URL}/dashboard/alerts` }] },
      ],
    });
    const discordBody = bodies.find((body) => 'content' in body)!;
    expect(discordBody.allowed_mentions).toEqual({ parse: [] });
    expect(discordBody.content).toContain('Ban <\\@everyone\\> & \\*bold\\*');
    expect(discordBody.content).toContain(`[Open in Guardian](<${PUBLIC_URL}/dashboard/alerts>)`);
    for (const post of hooks.posts) {
      expect(post.headers['webhook-signature']).toBeUndefined();
      expect(post.body).not.toMatch(/whsec_|v1:/);
    }
  });

  it('keeps at most the bound of deliveries waiting per channel, dropping the oldest and counting them', async () => {
    const hooks = await receiver();
    await create({ name: 'SIEM', type: 'webhook', webhook_url: hooks.url });
    await create({ name: 'Off', type: 'slack', webhook_url: hooks.url, enabled: false });
    const { channels } = worker({ queuedPerChannel: 3 });
    for (let alertId = 1; alertId <= 5; alertId++) await channels.deliver(notice({ alertId }));
    const listed = (await call(admin, 'GET', CHANNELS)).json<NotificationChannels>().channels;
    expect(listed.map((entry) => [entry.name, entry.queued, entry.dropped])).toEqual([
      ['SIEM', 3, 2],
      ['Off', 0, 0],
    ]);
    expect(await channels.sweep()).toBe(3);
    // The newest stayed: the two oldest were dropped.
    const sent = hooks.posts.map((post) => JSON.parse(post.body).data.alertId as number);
    expect(sent.sort()).toEqual([3, 4, 5]);
  });
});

describe('The notification channel set by the environment', () => {
  let ctx: TestContext;
  let admin: TestUser;
  const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    ctx = await createTestContext({ config: { notificationWebhook: { url: hooks.url, secret } } });
    admin = await ctx.createUser({ level: 0 });
  });
  afterAll(async () => {
    await hooks?.close();
    await ctx?.close();
  });

  it('is listed as set by the environment, signs with its secret, and cannot be changed or deleted here', async () => {
    const listed = await ctx.app.inject({ method: 'GET', url: CHANNELS, headers: admin.headers });
    const [channel] = listed.json<NotificationChannels>().channels;
    expect(channel).toMatchObject({
      type: 'webhook',
      from_environment: 'GUARDIAN_NOTIFICATION_WEBHOOK_URL',
      signed: true,
    });
    expect(listed.body).not.toContain(secret.slice(6));
    for (const [method, url, payload] of [
      ['PUT', `${CHANNELS}/${channel!.id}`, { name: 'Mine' }],
      ['DELETE', `${CHANNELS}/${channel!.id}`, undefined],
    ] as const) {
      const refused = await ctx.app.inject({
        method,
        url,
        headers: admin.headers,
        ...(payload ? { payload } : {}),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        'This channel is set by the environment variable GUARDIAN_NOTIFICATION_WEBHOOK_URL: change it there.',
      );
    }
    hooks.verifyWith(secret);
    const sent = await ctx.app.inject({
      method: 'POST',
      url: `${CHANNELS}/${channel!.id}/test`,
      headers: admin.headers,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(hooks.posts[0]!.verified).toBe(true);
  });
});
