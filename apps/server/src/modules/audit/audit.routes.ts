import { Readable } from 'node:stream';
import { AUDIT_EXPORT_MAX_ROWS, auditEndpoints, type AuditEvent, type AuditPage } from '@guardian/contract';
import { stringify } from 'csv-stringify';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Db } from '../../db';
import { route } from '../../endpoint-route';
import { AuditRepository, type AuditFilter } from './audit.repository';
import { spreadsheetSafe } from '../../spreadsheet-safe';

/** Rows read per query while exporting: the export streams, it never holds the whole trail. */
const EXPORT_BATCH = 1_000;

const CSV_COLUMNS: (keyof AuditEvent)[] = [
  'id',
  'at',
  'actor',
  'address',
  'action',
  'request',
  'account_id',
  'zone_id',
  'outcome',
  'status',
  'message',
  'summary',
  'target',
];

interface Filters {
  q?: string;
  actor?: string;
  account_id?: string;
  action?: string;
  outcome?: AuditFilter['outcome'];
  from?: string;
  to?: string;
}

const filterOf = (query: Filters, userId?: number): AuditFilter => ({
  userId,
  actor: query.actor,
  accountId: query.account_id,
  action: query.action,
  outcome: query.outcome,
  from: query.from,
  to: query.to,
  text: query.q,
});

async function pageOf(
  trail: AuditRepository,
  filter: AuditFilter,
  before: number | undefined,
  limit: number,
) {
  // One more than asked tells whether an older page exists.
  const events = await trail.page(filter, before, limit + 1);
  const page: AuditPage = {
    events: events.slice(0, limit),
    next_cursor: events.length > limit ? events[limit - 1]!.id : null,
  };
  return page;
}

/** The trail as CSV, streamed in batches, at most AUDIT_EXPORT_MAX_ROWS rows. */
function sendCsv(reply: FastifyReply, trail: AuditRepository, filter: AuditFilter) {
  async function* rows() {
    let before: number | undefined;
    for (let sent = 0; sent < AUDIT_EXPORT_MAX_ROWS;) {
      const batch = await trail.page(filter, before, Math.min(EXPORT_BATCH, AUDIT_EXPORT_MAX_ROWS - sent));
      if (batch.length === 0) return;
      for (const event of batch)
        yield CSV_COLUMNS.map((column) =>
          column === 'target' ? JSON.stringify(event.target) : event[column],
        );
      sent += batch.length;
      before = batch[batch.length - 1]!.id;
    }
  }
  // An actor, a message or a target is partly what a caller typed (a sign-in's e-mail): never a formula.
  const csv = Readable.from(rows()).pipe(
    stringify({ header: true, columns: CSV_COLUMNS, cast: { string: spreadsheetSafe } }),
  );
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="guardian-activity.csv"')
    .send(csv);
}

/** The audit trail's reads: one's own (/api/audit) and, for administrators, everyone's. */
export const auditRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const trail = new AuditRepository(db);

  route(app, auditEndpoints.mine, async (request) =>
    pageOf(trail, filterOf(request.query, request.user.id), request.query.before, request.query.limit),
  );
  route(app, auditEndpoints.everyone, async (request) =>
    pageOf(trail, filterOf(request.query), request.query.before, request.query.limit),
  );
  route(app, auditEndpoints.mineCsv, async (request, reply) =>
    sendCsv(reply, trail, filterOf(request.query, request.user.id)),
  );
  route(app, auditEndpoints.everyoneCsv, async (request, reply) =>
    sendCsv(reply, trail, filterOf(request.query)),
  );
};
