/**
 * Alert e-mails (issue 38): 10,000 new alerts raised in one minute by 5 people's causes (a refused ban,
 * a failed job, a new API key: 15 person x kind pairs), e-mailed through a real SMTP server (the
 * `smtp-server` package on a loopback port) that counts what arrives. The rule: at most one e-mail per
 * person and kind per window, the alerts raised meanwhile in one digest when it ends. Judged: the
 * e-mails counted at the SMTP server are within what the rule allows (each pair's e-mails a window
 * apart, so at most 1 + ceil(T / window) a pair over the T the run took), and none lost (the alerts
 * the e-mails tell of add up to the alerts raised; nothing is left held).
 *
 * The window is 10 s here (GUARDIAN_ALERT_MAIL_WINDOW_SECONDS; 15 minutes by default), so a minute
 * holds several windows: the rule keeps its shape, only its length changes. The services run in the
 * benchmark's process on their own in-memory PGlite, built by createServices as a server process
 * builds them; the alerts are raised through AlertCauses, the functions their causes call.
 */
import { performance } from 'node:perf_hooks';
import { ALERT_KIND_LABELS } from '@guardian/contract';
import { loadConfig, type Config } from '../../apps/server/src/config';
import { createAppDeps } from '../../apps/server/src/app';
import { createDb, runMigrations } from '../../apps/server/src/db';
import { UsersRepository, UsersService } from '../../apps/server/src/modules/users';
import { createServices } from '../../apps/server/src/services';
import { startSmtpInbox } from '../../apps/server/src/test/smtp-inbox';
import { fmt } from '../lib/report';
import { reasonOf, type Context } from './context';

const SECTION = 'Alert e-mail';
const FIGURES = {
  sent: '10,000 alerts raised in one minute: e-mails sent (counted at the SMTP server) / what the batching rule allows',
  lost: 'the same: alerts told of in the e-mails / alerts raised (none lost)',
};
const ALERTS = 10_000;
const RAISE_MS = 60_000;
const PEOPLE = 5;
const KINDS = ['ban-refused', 'job-failed', 'api-key-created'] as const;
const WINDOW_S = 10;
/**
 * A pair's next e-mail waits a window from when the one before was settled, after the SMTP server
 * took it: arrivals, stamped by the server, are a window apart at least, with no slack.
 */
const DRAIN_MS = 3 * WINDOW_S * 1000 + 30_000;

/** The kind an e-mail tells of: a digest names its label; one alert is told in its title's words. */
function kindOfSubject(subject: string, digestLabel: string | undefined): string {
  if (digestLabel !== undefined)
    return KINDS.find((kind) => ALERT_KIND_LABELS[kind] === digestLabel) ?? digestLabel;
  if (subject.includes('was not added to')) return 'ban-refused';
  if (subject.includes('A new API key')) return 'api-key-created';
  return 'job-failed';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function alertMailSection(ctx: Context): Promise<void> {
  const inbox = await startSmtpInbox();
  const config: Config = {
    ...loadConfig({
      GUARDIAN_MODE: 'test',
      GUARDIAN_SMTP_HOST: '127.0.0.1',
      GUARDIAN_SMTP_PORT: String(inbox.port),
      GUARDIAN_SMTP_TLS: 'none',
      GUARDIAN_SMTP_SENDER: 'Guardian bench <bench@guardian.local>',
      GUARDIAN_ALERT_MAIL_WINDOW_SECONDS: String(WINDOW_S),
    }),
  };
  config.notifications = { ...config.notifications, mailSweepMs: 1_000 };
  const db = await createDb(config);
  const services = createServices(config, createAppDeps(config, db));
  try {
    await runMigrations(db);
    await services.systemSettings.start();
    services.notificationDispatch.start();
    const users = new UsersService(new UsersRepository(db), config.passwordHashing);
    const people = [];
    for (let i = 0; i < PEOPLE; i++)
      people.push(
        await users.create({ email: `bench-mail-${i}@example.test`, password: 'bench password 1', level: 1 }),
      );
    const causes = services.alertCauses;

    // Alert i is due at i * RAISE_MS / ALERTS: spread evenly over the minute, raised as its cause would.
    const started = performance.now();
    let raised = 0;
    while (raised < ALERTS) {
      const due = Math.min(ALERTS, Math.floor(((performance.now() - started) / RAISE_MS) * ALERTS) + 1);
      for (; raised < due; raised++) {
        const person = people[raised % PEOPLE]!;
        const kind = KINDS[Math.floor(raised / PEOPLE) % KINDS.length]!;
        if (kind === 'ban-refused')
          await causes.banRefused(
            person.id,
            { listId: 'bench-list', listName: 'bench_list', accountName: 'Bench' },
            `10.${(raised >> 16) & 255}.${(raised >> 8) & 255}.${raised & 255}`,
            'the bench refused it',
          );
        else if (kind === 'job-failed')
          await causes.jobEnded({
            kind: 'ban-list-sync',
            userId: person.id,
            accountId: null,
            accountName: null,
            target: `bench list ${raised}`,
            state: 'failed',
            error: 'the bench failed it',
          });
        else
          await causes.apiKeyCreated(person.id, { id: raised + 1, name: `bench ${raised}`, access: 'read' });
      }
      await sleep(50);
    }
    const raiseMs = performance.now() - started;
    const [created] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM alerts');

    // Until every held alert went out (the last digests end their windows after the minute).
    const deadline = performance.now() + DRAIN_MS;
    for (;;) {
      await services.notificationDispatch.idle();
      const [left] = await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM notification_mail_held)::int
              + (SELECT count(*) FROM notification_mail_batches WHERE due_at IS NOT NULL)::int AS n`,
      );
      if (left!.n === 0) break;
      if (performance.now() > deadline) break;
      await sleep(250);
    }
    const [held] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notification_mail_held');
    const totalMs = performance.now() - started;

    const byPair = new Map<string, number[]>();
    let told = 0;
    const arrivals = inbox.messages;
    for (const mail of arrivals) {
      const digest = /^Guardian: (\d+) new alerts: (.*)$/.exec(mail.subject);
      told += digest ? Number(digest[1]) : 1;
      const key = `${mail.to.join(',')} ${kindOfSubject(mail.subject, digest?.[2])}`;
      byPair.set(key, [...(byPair.get(key) ?? []), mail.receivedAt]);
    }
    let closest = Infinity;
    for (const times of byPair.values())
      for (let i = 1; i < times.length; i++) closest = Math.min(closest, times[i]! - times[i - 1]!);
    const pairs = PEOPLE * KINDS.length;
    const allowed = pairs * (1 + Math.ceil(totalMs / (WINDOW_S * 1000)));
    const sent = arrivals.length;
    ctx.report.data.alertMail = {
      alerts: created!.n,
      raiseMs,
      totalMs,
      sent,
      allowed,
      pairs: byPair.size,
      closestGapMs: closest,
      told,
      heldLeft: held!.n,
      windowS: WINDOW_S,
    };
    ctx.report.budget(
      SECTION,
      FIGURES.sent,
      sent / allowed,
      `${fmt.int(sent)} e-mails for ${fmt.int(created!.n)} alerts in ${fmt.ms(raiseMs)} (${byPair.size} person x kind pairs, window ${WINDOW_S} s, run ${fmt.ms(totalMs)}: at most ${fmt.int(allowed)}); a pair's e-mails at least ${fmt.ms(closest)} apart`,
      '<= 1.00, a window apart',
      (ratio) => ratio <= 1 && closest >= WINDOW_S * 1000,
    );
    ctx.report.budget(
      SECTION,
      FIGURES.lost,
      told / created!.n,
      `${fmt.int(told)} of ${fmt.int(created!.n)} alerts in ${fmt.int(sent)} e-mails; ${fmt.int(held!.n)} left held`,
      '1.00, none held',
      (ratio) => ratio === 1 && held!.n === 0 && created!.n === ALERTS,
    );
  } catch (err) {
    ctx.report.missing(SECTION, `failed: ${reasonOf(err)}`, [
      { name: FIGURES.sent, limit: '<= 1.00, a window apart' },
      { name: FIGURES.lost, limit: '1.00, none held' },
    ]);
  } finally {
    await services.notificationDispatch.stop();
    await services.systemSettings.stop();
    await db.close();
    await inbox.close();
  }
}
