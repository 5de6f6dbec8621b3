/**
 * Audit trail: the Activity pages stay fast when the trail is long. The trail is filled with
 * `rows` events (2,000,000 by default: months of a busy team), spread over 40 people, 25 accounts,
 * 12 kinds of change and about 70 days, a few in a hundred refused or failed; then each filtered first
 * page an administrator or a person opens is loaded with a few connections (people reading, not a
 * load test) and its p99 judged against the budget.
 */
import { auditEndpoints } from '@guardian/contract';
import { api, ApiError, type Api } from '../lib/api';
import { loadRead } from '../lib/load';
import { fmt } from '../lib/report';
import type { ServerChild } from '../lib/stack';
import type { SeededSectionContext } from './context';

export const AUDIT_BUDGET_P99_MS = 50;
const PEOPLE = 40;
const ACCOUNTS = 25;
const ACTIONS = [
  'banListItems.add',
  'banListItems.remove',
  'banLists.sync',
  'banLists.add',
  'dnsRecords.add',
  'dnsRecords.update',
  'dnsRecords.remove',
  'firewallRules.add',
  'firewallRules.update',
  'pageRules.update',
  'zones.sync',
  'auth.login',
];
/** Rows per INSERT: the embedded database builds each statement's rows in memory. */
const SEED_BATCH = 250_000;
/** A person reading the trail: a few pages at once, as a team would open them. */
const CONNECTIONS = 4;

export interface AuditContext extends SeededSectionContext {
  rows: number;
}

/** The trail's rows, in batches; event g of n happened (n - g) * 3 s ago. Person 0 is `person`. */
async function seedTrail(
  server: ServerChild,
  rows: number,
  person: { id: number; email: string },
): Promise<void> {
  for (let first = 1; first <= rows; first += SEED_BATCH) {
    const last = Math.min(rows, first + SEED_BATCH - 1);
    await server.sql(
      `INSERT INTO audit_events
         (at, user_id, actor, address, action, request, account_id, zone_id, target, outcome, status, message)
       SELECT now() - ($3::int - g) * interval '3 seconds',
              CASE WHEN g % ${PEOPLE} = 0 THEN $4::bigint ELSE 1000000 + g % ${PEOPLE} END,
              CASE WHEN g % ${PEOPLE} = 0 THEN $6 ELSE 'person' || (g % ${PEOPLE}) || '@example.test' END,
              '10.0.' || (g % 250) || '.' || (g % 199),
              action,
              'POST /api/' || replace(action, '.', '/'),
              'account-' || (g % ${ACCOUNTS}),
              CASE WHEN action LIKE 'dns%' OR action LIKE 'firewall%' THEN 'zone-' || (g % 300) END,
              jsonb_build_object('ip', '203.0.' || (g % 256) || '.' || (g % 251)),
              CASE WHEN g % 97 = 0 THEN 'failed' WHEN g % 31 = 0 THEN 'refused' ELSE 'success' END,
              CASE WHEN g % 97 = 0 THEN 502 WHEN g % 31 = 0 THEN 400 ELSE 200 END,
              CASE WHEN g % 97 = 0 THEN 'Cloudflare is unavailable.' WHEN g % 31 = 0 THEN 'Invalid IP.' END
         FROM generate_series($1::int, $2::int) AS g,
              LATERAL (SELECT ($5::text[])[1 + g % ${ACTIONS.length}] AS action) AS chosen`,
      [first, last, rows, person.id, ACTIONS, person.email],
    );
  }
  // As after autovacuum: the planner knows the table's size and spread.
  await server.sql('ANALYZE audit_events');
}

interface Target {
  name: string;
  api: Api;
  path: string;
}

export async function auditSection(ctx: AuditContext): Promise<void> {
  const { report, server, rows } = ctx;
  const at = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  const everyone = auditEndpoints.everyone.path;
  const filtered = (query: Record<string, string>) => `${everyone}?${new URLSearchParams(query)}`;
  const admin = await server.createUser(0);
  const person = await server.createUser(1);
  const adminApi = api(server.origin, admin.token);
  const personApi = api(server.origin, person.token);
  const targets: Target[] = [
    { name: 'everyone, no filter', api: adminApi, path: everyone },
    { name: 'one person (their e-mail)', api: adminApi, path: filtered({ actor: person.email }) },
    { name: 'part of an e-mail', api: adminApi, path: filtered({ actor: 'person7@' }) },
    { name: 'one account', api: adminApi, path: filtered({ account_id: 'account-7' }) },
    { name: 'one kind of change', api: adminApi, path: filtered({ action: 'dnsRecords.' }) },
    { name: 'failed changes', api: adminApi, path: filtered({ outcome: 'failed' }) },
    { name: 'one day a month ago', api: adminApi, path: filtered({ from: at(30), to: at(29) }) },
    {
      name: 'one person, failed, a week',
      api: adminApi,
      path: filtered({ actor: person.email, outcome: 'failed', from: at(37), to: at(30) }),
    },
    {
      name: 'one account, one kind, refused',
      api: adminApi,
      path: filtered({ account_id: 'account-3', action: 'banListItems.add', outcome: 'refused' }),
    },
    { name: "a person's own trail", api: personApi, path: auditEndpoints.mine.path },
  ];
  const budgetName = (target: Target) => `${target.name}: p99`;
  try {
    const started = performance.now();
    await seedTrail(server, rows, person);
    const [counted] = await server.sql<{ count: number }>('SELECT count(*)::int AS count FROM audit_events');
    report.row({
      section: 'Audit',
      figure: 'events in the trail',
      value: `${fmt.int(counted?.count ?? 0)} (written in ${fmt.ms(performance.now() - started)})`,
    });
  } catch (err) {
    report.missing('Audit', `seeding the trail: ${String(err)}`, [
      ...targets.map((t) => ({ name: budgetName(t), limit: `< ${AUDIT_BUDGET_P99_MS} ms` })),
    ]);
    return;
  }
  const figures: Record<string, unknown> = {};
  for (const target of targets) {
    process.stdout.write(`  Audit: ${target.name}...`);
    const first = await target.api.raw('GET', target.path);
    if (first.status !== 200) throw new ApiError(first.status, 'GET', target.path, first.text);
    const events = (JSON.parse(first.text) as { events: unknown[] }).events.length;
    const { result, plans } = await loadRead(server, {
      path: target.path,
      token: target.api.token,
      connections: CONNECTIONS,
      durationS: ctx.durationS,
      limit: AUDIT_BUDGET_P99_MS,
      table: 'audit_events',
    });
    process.stdout.write(` p99 ${fmt.ms(result.p99)}, ${fmt.rps(result.requestsPerSecond)}\n`);
    figures[target.name] = { path: target.path, events, load: result, plans };
    report.p99Budget(
      'Audit',
      budgetName(target),
      result,
      AUDIT_BUDGET_P99_MS,
      `${fmt.ms(result.p99)} (p50 ${fmt.ms(result.p50)}; ${events} events on the page)`,
    );
  }
  report.data.audit = { rows, connections: CONNECTIONS, figures };
}
