import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db';
import { AUDIT_VALUES_NAMED, type AuditSubject } from './audit-words';

type Params = Record<string, unknown>;

/** The ids of a Remove matches request, bounded by its schema (at most 200 pairs). */
function matchesOf(body: Params): { listIds: string[]; itemIds: number[] } {
  const listIds: string[] = [];
  const itemIds: number[] = [];
  if (!Array.isArray(body.items)) return { listIds, itemIds };
  for (const entry of body.items as { list_id?: unknown; item_id?: unknown }[]) {
    if (typeof entry?.list_id === 'string' && typeof entry.item_id === 'number') {
      listIds.push(entry.list_id);
      itemIds.push(entry.item_id);
    }
  }
  return { listIds, itemIds };
}

/**
 * What the words of a change name that only its handler learnt: a deleted DNS record's type and name
 * lives at Cloudflare, and the delete keeps it in a snapshot (the person's, at most a few hundred) first.
 */
export async function answeredSubjectOf(
  db: Db,
  request: FastifyRequest,
  action: string,
): Promise<AuditSubject> {
  const userId = request.user?.id;
  const params = (request.params ?? {}) as Params;
  if (action !== 'dnsRecords.remove' || userId === undefined) return {};
  const [row] = await db.query<{ summary: string }>(
    `SELECT summary FROM snapshots
      WHERE user_id = $1 AND kind = 'dns-record' AND zone_id = $2 AND record_id = $3
      ORDER BY created_at DESC LIMIT 1`,
    [userId, params.zone_id, params.record_id],
  );
  return row ? { record: row.summary } : {};
}

/**
 * What the words of a change name beyond its account, list and zone (requestAccountOf): the values of
 * the items it removes or changes, the lists a change across lists touches, the person, key or
 * snapshot it is about. Read before the handler runs, only among the person's own rows (an
 * administrator's change about a person reads that person's e-mail), and bounded: at most
 * AUDIT_VALUES_NAMED values are read, the rest counted.
 */
export async function requestSubjectOf(
  db: Db,
  request: FastifyRequest,
  action: string,
): Promise<AuditSubject> {
  const userId = request.user?.id;
  if (userId === undefined) return {};
  const params = (request.params ?? {}) as Params;
  const body = (request.body ?? {}) as Params;

  switch (action) {
    case 'banListItems.remove':
    case 'banListItems.changeExpiry': {
      const rows = await db.query<{ ip: string }>(
        `SELECT i.ip FROM ban_lists bl
         JOIN cloudflare_accounts a ON a.id = bl.account_ref AND a.user_id = $3
         JOIN ban_list_items i ON i.ban_list_ref = bl.id AND i.id = $2
         WHERE bl.list_id = $1`,
        [params.list_id, params.item_id, userId],
      );
      return rows.length > 0 ? { values: rows.map((row) => row.ip) } : {};
    }
    case 'ipSearch.remove': {
      const { listIds, itemIds } = matchesOf(body);
      if (listIds.length === 0) return {};
      const rows = await db.query<{ ip: string; list_name: string }>(
        `SELECT i.ip, bl.list_name
         FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS m (list_id, item_id, n)
         JOIN ban_lists bl ON bl.list_id = m.list_id
         JOIN cloudflare_accounts a ON a.id = bl.account_ref AND a.user_id = $3
         JOIN ban_list_items i ON i.ban_list_ref = bl.id AND i.id = m.item_id
         ORDER BY m.n`,
        [listIds, itemIds, userId],
      );
      const values = [...new Set(rows.map((row) => row.ip))];
      return {
        values: values.slice(0, AUDIT_VALUES_NAMED),
        moreValues: Math.max(0, values.length - AUDIT_VALUES_NAMED),
        lists: [...new Set(rows.map((row) => row.list_name))].slice(0, AUDIT_VALUES_NAMED),
      };
    }
    case 'ipSearch.ban': {
      const listIds = Array.isArray(body.list_ids)
        ? body.list_ids.filter((id) => typeof id === 'string')
        : [];
      const rows = await db.query<{ list_name: string }>(
        `SELECT DISTINCT bl.list_name FROM ban_lists bl
         JOIN cloudflare_accounts a ON a.id = bl.account_ref AND a.user_id = $2
         WHERE bl.list_id = ANY($1::text[]) ORDER BY bl.list_name LIMIT ${AUDIT_VALUES_NAMED + 1}`,
        [listIds, userId],
      );
      return { lists: rows.slice(0, AUDIT_VALUES_NAMED).map((row) => row.list_name) };
    }
    case 'banListItems.importApply': {
      const [row] = await db.query<{ item_count: number }>(
        'SELECT item_count FROM ban_list_imports WHERE id::text = $1 AND user_id = $2',
        [params.import_id, userId],
      );
      return row ? { importCount: row.item_count } : {};
    }
    case 'accounts.update':
    case 'accounts.remove': {
      const [row] = await db.query<{ account_name: string }>(
        'SELECT account_name FROM cloudflare_accounts WHERE id = $1 AND user_id = $2',
        [params.id, userId],
      );
      return row ? { accountName: row.account_name } : {};
    }
    case 'listCapacity.setPlan': {
      const [row] = await db.query<{ account_name: string }>(
        'SELECT account_name FROM cloudflare_accounts WHERE account_id = $1 AND user_id = $2',
        [params.account_id, userId],
      );
      return row ? { accountName: row.account_name } : {};
    }
    case 'snapshots.restore': {
      const [row] = await db.query<{ summary: string }>(
        'SELECT summary FROM snapshots WHERE id::text = $1 AND user_id = $2',
        [params.id, userId],
      );
      return row ? { snapshot: row.summary } : {};
    }
    case 'apiKeys.revoke': {
      const [row] = await db.query<{ name: string }>(
        'SELECT name FROM api_keys WHERE id = $1 AND user_id = $2',
        [params.id, userId],
      );
      return row ? { keyName: row.name } : {};
    }
    case 'apiKeys.userRevoke':
    case 'twoFactor.reset':
    case 'users.setLevel':
    case 'users.setPlan':
    case 'users.disable':
    case 'users.enable':
    case 'users.resetPassword':
    case 'users.remove': {
      // Administrators' changes about a person (the routes refuse anyone else before the handler).
      const [row] = await db.query<{ email: string; key_name: string | null }>(
        `SELECT u.email, k.name AS key_name FROM users u
         LEFT JOIN api_keys k ON k.user_id = u.id AND k.id = $2
         WHERE u.id = $1`,
        [params.id, typeof params.key_id === 'number' ? params.key_id : null],
      );
      return row ? { person: row.email, keyName: row.key_name ?? undefined } : {};
    }
    default:
      return {};
  }
}
