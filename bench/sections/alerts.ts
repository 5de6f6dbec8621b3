/**
 * Alerts (issue 38): the alerts page stays fast for a person with a long history. One person's alerts
 * are filled with `rows` rows (100,000 by default) over the kinds, severities and states as they come
 * in use (most resolved or cleared by themselves, a few hundred open), spread over about 90 days; then
 * the page's first pages (no filter, a state, a kind, a severity, a kind and a state) and the top bar's
 * open count are loaded with `connections` connections (50) and their p99 judged. There is no answer
 * cache on alerts: every request reads the database (the cold path). Each row also tells the request
 * alone: its database round trips, the time the server waited on its statements and the CPU time it
 * took the server and the embedded database's process, counted over requests one after another.
 */
import { ALERT_KINDS, alertEndpoints } from '@guardian/contract';
import { api, ApiError } from '../lib/api';
import { loadRead } from '../lib/load';
import { fmt } from '../lib/report';
import type { ServerChild } from '../lib/stack';
import type { SeededSectionContext } from './context';
import { BUDGET } from '../options';

/** Rows per INSERT: the embedded database builds each statement's rows in memory. */
const SEED_BATCH = 50_000;
/**
 * Requests of a page one after another, before its load: its p50 alone, its round trips, statement
 * time and CPU time (enough of them for the CPU's 10 ms ticks to count a fraction of a millisecond each).
 */
const SEQUENTIAL = 200;

export interface AlertsContext extends SeededSectionContext {
  rows: number;
  connections: number;
}

/**
 * The person's alerts, oldest first (so `seq`, the page's order, follows time): alert g of n was last
 * seen (n - g) * 75 s ago. Kinds as they occur: refused bans and failed jobs most, sign-ins and
 * tickets less, a few invalid tokens. States: 1 in 200 open, 1 in 200 acknowledged, the rest resolved
 * or cleared; severity follows the kind, as the causes set it.
 */
async function seedAlerts(server: ServerChild, rows: number, userId: number): Promise<void> {
  const weighted = [
    ...Array<string>(6).fill('ban-refused'),
    ...Array<string>(4).fill('job-failed'),
    ...Array<string>(3).fill('server-refused'),
    ...Array<string>(2).fill('new-sign-in-address'),
    ...ALERT_KINDS,
  ];
  for (let first = 1; first <= rows; first += SEED_BATCH) {
    const last = Math.min(rows, first + SEED_BATCH - 1);
    await server.sql(
      `INSERT INTO alerts (user_id, kind, severity, state, dedupe_key, title, subject_type, subject_id,
                           subject_name, count, first_seen_at, last_seen_at, acknowledged_at, resolved_at)
       SELECT $4::bigint, kind,
              CASE WHEN kind IN ('token-invalid', 'capacity') THEN 'critical'
                   WHEN kind IN ('new-sign-in-address', 'api-key-created', 'ticket-replied', 'ticket-waiting')
                     THEN 'info'
                   ELSE 'warning' END,
              state, 'bench:' || g, 'Bench alert ' || g || ' (' || kind || ')',
              'account', 'account-' || (g % 25), 'Account ' || (g % 25), 1 + g % 7,
              seen - interval '1 hour', seen,
              CASE WHEN state = 'acknowledged' THEN seen END,
              CASE WHEN state IN ('resolved', 'cleared') THEN seen + interval '10 minutes' END
         FROM generate_series($1::int, $2::int) AS g,
              LATERAL (SELECT ($5::text[])[1 + (g * 7919) % ${weighted.length}] AS kind,
                              CASE WHEN g % 200 = 0 THEN 'open' WHEN g % 100 = 0 THEN 'acknowledged'
                                   WHEN g % 3 = 0 THEN 'resolved' ELSE 'cleared' END AS state,
                              now() - ($3::int - g) * interval '75 seconds' AS seen) AS chosen
        ORDER BY g`,
      [first, last, rows, userId, weighted],
    );
  }
  // As after autovacuum: the planner knows the table's size and spread.
  await server.sql('ANALYZE alerts');
}

interface Target {
  name: string;
  path: string;
}

export async function alertsSection(ctx: AlertsContext): Promise<void> {
  const { report, server, rows } = ctx;
  const page = (query: Record<string, string>) => `${alertEndpoints.list.path}?${new URLSearchParams(query)}`;
  const targets: Target[] = [
    { name: 'first page, no filter', path: alertEndpoints.list.path },
    { name: 'open', path: page({ state: 'open' }) },
    { name: 'open or acknowledged', path: page({ state: 'active' }) },
    { name: 'one kind (a job failed)', path: page({ kind: 'job-failed' }) },
    { name: 'a rare kind (token not valid)', path: page({ kind: 'token-invalid' }) },
    { name: 'critical', path: page({ severity: 'critical' }) },
    { name: 'open, one kind', path: page({ state: 'open', kind: 'ban-refused' }) },
    { name: 'the open count (top bar)', path: alertEndpoints.summary.path },
  ];
  const limit = BUDGET.alertsP99Ms;
  const budgetName = (target: Target) => `${target.name}: p99`;
  const person = await server.createUser(1);
  const personApi = api(server.origin, person.token);
  try {
    const started = performance.now();
    await seedAlerts(server, rows, person.id);
    const [counted] = await server.sql<{ count: number; open: number }>(
      `SELECT count(*)::int AS count, count(*) FILTER (WHERE state = 'open')::int AS open
         FROM alerts WHERE user_id = $1`,
      [person.id],
    );
    report.row({
      section: 'Alerts',
      figure: "one person's alerts",
      value: `${fmt.int(counted?.count ?? 0)}, ${fmt.int(counted?.open ?? 0)} open (written in ${fmt.ms(performance.now() - started)})`,
    });
  } catch (err) {
    report.missing(
      'Alerts',
      `seeding the alerts: ${String(err)}`,
      targets.map((t) => ({ name: budgetName(t), limit: `< ${limit} ms` })),
    );
    return;
  }
  const figures: Record<string, unknown> = {};
  for (const target of targets) {
    process.stdout.write(`  Alerts: ${target.name}...`);
    const first = await personApi.raw('GET', target.path);
    if (first.status !== 200) throw new ApiError(first.status, 'GET', target.path, first.text);
    const answer = JSON.parse(first.text) as { alerts?: unknown[]; open?: number };
    const shown = answer.alerts ? `${answer.alerts.length} alerts on the page` : `${answer.open} open`;
    // The request alone, one after another: what it costs, apart from the load's queueing; after as
    // many unmeasured (the server's first requests compile its code: the first page's CPU, not its cost).
    for (let i = 0; i < SEQUENTIAL; i++) await personApi.request('GET', target.path);
    await server.resetQueries();
    const cpuBefore = server.cpuMs();
    const alone: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const started = performance.now();
      await personApi.request('GET', target.path);
      alone.push(performance.now() - started);
    }
    const cpuAfter = server.cpuMs();
    const queries = await server.queries();
    const perRequest = (total: number) => total / SEQUENTIAL;
    const roundTrips = perRequest(queries.total);
    const statementMs = perRequest(Object.values(queries.msBySql).reduce((sum, ms) => sum + ms, 0));
    const cpu = {
      server: perRequest(cpuAfter.server - cpuBefore.server),
      database:
        cpuAfter.database === null || cpuBefore.database === null
          ? null
          : perRequest(cpuAfter.database - cpuBefore.database),
    };
    alone.sort((a, b) => a - b);
    const aloneP50 = alone[Math.floor(alone.length / 2)]!;
    const cost =
      `alone ${fmt.ms(aloneP50)}, ${roundTrips.toFixed(1)} round trips, statements ${statementMs.toFixed(2)} ms, ` +
      `CPU server ${cpu.server.toFixed(2)} ms` +
      (cpu.database === null ? '' : ` + database ${cpu.database.toFixed(2)} ms`);
    const { result, plans } = await loadRead(server, {
      path: target.path,
      token: person.token,
      connections: ctx.connections,
      durationS: ctx.durationS,
      limit,
      table: 'alerts',
    });
    process.stdout.write(` p99 ${fmt.ms(result.p99)}, ${fmt.rps(result.requestsPerSecond)}\n`);
    figures[target.name] = {
      path: target.path,
      shown,
      roundTrips,
      statementMs,
      cpuMs: cpu,
      aloneP50,
      load: result,
      plans,
    };
    report.p99Budget(
      'Alerts',
      budgetName(target),
      result,
      limit,
      `${fmt.ms(result.p99)} (p50 ${fmt.ms(result.p50)}, ${fmt.rps(result.requestsPerSecond)}; ${cost}; ${shown})`,
    );
  }
  report.data.alerts = { rows, connections: ctx.connections, figures };
}
