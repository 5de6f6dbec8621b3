import type { ListPlan, SortOrder, ZoneSort } from '@guardian/contract';
import { likeLiteral, PLANNED_ONCE, type Queryable } from '../../db';
import type { AccountRecord } from '../accounts';

export interface ZoneRecord {
  id: number;
  accountRef: number;
  /** Cloudflare's zone id: the id the API and the browser use. */
  zoneId: string;
  domain: string;
  status: string;
  nameServers: string[];
}

/** A zone as Cloudflare describes it, the part the mirror keeps. */
export interface CloudflareZoneFields {
  zoneId: string;
  domain: string;
  status: string;
  nameServers: string[];
  /** The zone's plan (null: Cloudflare did not say one Guardian knows); an account's Lists quotas follow it. */
  plan: ListPlan | null;
}

export interface OwnedZone {
  zone: ZoneRecord;
  account: AccountRecord;
}

interface OwnedZoneRow {
  id: number;
  account_ref: number;
  zone_id: string;
  domain: string;
  status: string;
  name_servers: string[];
  user_id: number;
  account_name: string;
  account_id: string;
  token_encrypted: string;
  token_last4: string;
}

const toOwnedZone = (row: OwnedZoneRow): OwnedZone => ({
  zone: {
    id: row.id,
    accountRef: row.account_ref,
    zoneId: row.zone_id,
    domain: row.domain,
    status: row.status,
    nameServers: row.name_servers,
  },
  account: {
    id: row.account_ref,
    userId: row.user_id,
    accountName: row.account_name,
    accountId: row.account_id,
    tokenEncrypted: row.token_encrypted,
    tokenLast4: row.token_last4,
  },
});

/**
 * The page's ORDER BY: the sorted column, then domain, then the mirror's id, all one way. Bytewise ("C")
 * as the indexes of migrations 054 and 056 are, so PGlite and PostgreSQL agree whatever the database's
 * locale; account names without case, as people read them. `zone` qualifies the columns of a zones row.
 */
function zoneOrder(sort: ZoneSort, order: SortOrder, zone: string): string {
  const columns: Record<ZoneSort, string> = {
    domain: `${zone}domain COLLATE "C"`,
    accountName: `lower(${zone}account_name) COLLATE "C"`,
    status: `${zone}status COLLATE "C"`,
  };
  const direction = order === 'desc' ? 'DESC' : 'ASC';
  return [columns[sort], columns.domain, `${zone}id`].map((column) => `${column} ${direction}`).join(', ');
}

/**
 * The JSON of `Zone[]` of the zones rows `zone` (a prefix as `zoneOrder`'s) in `orderBy`: each row's
 * own JSON (migration 059) joined, none built per request.
 */
const zonesJson = (zone: string, orderBy: string) =>
  `'[' || coalesce(string_agg(${zone}zone_json, ',' ORDER BY ${orderBy}), '') || ']'`;

/** The person's mirror's version and number of zones (migration 056), as `versioned` reads them: an answer may use the number. */
const VERSION = 'coalesce(kept.version, 0)::text';
const KEPT_ZONES = 'coalesce(kept.zones, 0)';

/** Three letters or digits in a row: a search pg_trgm finds trigrams in (it reads other characters as spaces). */
const TRIGRAM_RUN = /[a-z0-9]{3}/i;

/**
 * The zones whose domain or account name contains `search`, without case, with `param` its value:
 * through the trigram indexes of migration 056 when the search has a trigram, else by reading the
 * person's rows (a trigram index would be read whole). The two match exactly the same zones: a LIKE
 * with its wildcards escaped is a plain "contains".
 */
function zoneSearch(search: string, param: string): { condition: string; value: string } {
  if (TRIGRAM_RUN.test(search)) {
    return {
      condition: `(lower(z.domain) LIKE lower(${param}) OR lower(z.account_name) LIKE lower(${param}))`,
      value: `%${likeLiteral(search)}%`,
    };
  }
  return {
    condition: `(strpos(lower(z.domain), lower(${param})) > 0 OR strpos(lower(z.account_name), lower(${param})) > 0)`,
    value: search,
  };
}

/** An answer about a user's zones and the version of their mirror it was read at; null when it was the known one. */
export interface VersionedJson {
  version: string;
  json: string | null;
}

export interface ZonesPageRequest {
  /** Matched without case; '' for every zone. */
  search: string;
  sort: ZoneSort;
  order: SortOrder;
  limit: number;
  offset: number;
}

/** The only SQL on zones. A zone is only ever found through the user's own accounts. */
export class ZonesRepository {
  constructor(private readonly db: Queryable) {}

  /** The zone with this Cloudflare id under one of the user's accounts, with that account. */
  async findOwned(userId: number, zoneId: string): Promise<OwnedZone | undefined> {
    return (await this.findOwnedMany(userId, [zoneId]))[0];
  }

  /**
   * Those of `zoneIds` that are zones of the user's accounts, each once (with one of its accounts when
   * two of the user's accounts reach it); ids of nobody's or someone else's zones are left out.
   */
  async findOwnedMany(userId: number, zoneIds: readonly string[]): Promise<OwnedZone[]> {
    const rows = await this.db.query<OwnedZoneRow>(
      `SELECT DISTINCT ON (z.zone_id)
              z.id, z.account_ref, z.zone_id, z.domain, z.status, z.name_servers,
              a.user_id, a.account_name, a.account_id, a.token_encrypted, a.token_last4
         FROM zones z JOIN cloudflare_accounts a ON a.id = z.account_ref
        WHERE a.user_id = $1 AND z.zone_id = ANY($2::text[])
        ORDER BY z.zone_id, z.id`,
      [userId, zoneIds],
    );
    return rows.map(toOwnedZone);
  }

  /**
   * The user's zones (of one account of theirs, or one zone, when asked), each once with one of its
   * accounts, by domain: at most `limit`.
   */
  async listOwned(
    userId: number,
    only: { accountId?: string; zoneId?: string },
    limit: number,
  ): Promise<OwnedZone[]> {
    const rows = await this.db.query<OwnedZoneRow>(
      `SELECT * FROM (
         SELECT DISTINCT ON (z.zone_id)
                z.id, z.account_ref, z.zone_id, z.domain, z.status, z.name_servers,
                a.user_id, a.account_name, a.account_id, a.token_encrypted, a.token_last4
           FROM zones z JOIN cloudflare_accounts a ON a.id = z.account_ref
          WHERE a.user_id = $1 AND ($2::text IS NULL OR a.account_id = $2) AND ($3::text IS NULL OR z.zone_id = $3)
          ORDER BY z.zone_id, z.id
       ) owned ORDER BY domain, zone_id LIMIT $4`,
      [userId, only.accountId ?? null, only.zoneId ?? null, limit],
    );
    return rows.map(toOwnedZone);
  }

  /**
   * The user's zones as the JSON of `Zone[]`, with the version of their mirror (see `versioned`):
   * the list only when the version is not `knownVersion` (the caller keeps that one).
   */
  async listJsonForUser(userId: number, knownVersion?: string): Promise<VersionedJson> {
    return this.versioned(
      `SELECT ${zonesJson('z.', 'z.domain, z.zone_id')} FROM zones z WHERE z.user_id = $1`,
      [userId],
      knownVersion,
    );
  }

  /**
   * One page of the user's zones as the JSON of `ZonesPage`, built by the database in one statement
   * with the mirror's version (see `versioned`): the page's rows and the number of zones the search
   * matches, from one snapshot. Rows equal in the sorted column follow by domain, then by the
   * mirror's id, so consecutive pages never overlap.
   */
  async pageJsonForUser(
    userId: number,
    request: ZonesPageRequest,
    knownVersion?: string,
  ): Promise<VersionedJson> {
    // The owner, the account's name and the zone's JSON on the row (migrations 054, 056, 059): every
    // order walks an index and stops after the page, whose rows' JSON is joined as it is. Without a
    // search, the count is the one kept; a search's matches (`zoneSearch`) are read once, for the
    // page and the count.
    const search = request.search === '' ? undefined : zoneSearch(request.search, '$4');
    const columns = 'z.id, z.domain, z.status, z.account_name, z.zone_json';
    const page = `SELECT '{"zones":' || (
         SELECT ${zonesJson('page.', zoneOrder(request.sort, request.order, 'page.'))}
           FROM (SELECT ${columns} FROM ${search ? 'matched z' : 'zones z WHERE z.user_id = $1'}
                  ORDER BY ${zoneOrder(request.sort, request.order, 'z.')}
                  LIMIT $2 OFFSET $3) page
       ) || ',"totalZones":' || ${search ? '(SELECT count(*) FROM matched)' : KEPT_ZONES} || '}'`;
    return this.versioned(
      search
        ? `WITH matched AS MATERIALIZED (SELECT ${columns} FROM zones z WHERE z.user_id = $1 AND ${search.condition})
           ${page}`
        : page,
      [userId, request.limit, request.offset, ...(search ? [search.value] : [])],
      knownVersion,
    );
  }

  /**
   * An answer about the user's zones ($1 is the user) with the version of their mirror, in one
   * statement reading one row of `zone_list_versions`: the version, which the triggers of migration
   * 056 bump with every change of the person's zones (an account's rename or removal included), and
   * their number of zones (`KEPT_ZONES`). `answer` runs only when the version is not `knownVersion`:
   * a kept answer costs a version check.
   */
  private async versioned(answer: string, params: unknown[], knownVersion?: string): Promise<VersionedJson> {
    const known = params.length + 1;
    const [row] = await this.db.query<VersionedJson>(
      `SELECT ${VERSION} AS version, CASE WHEN ${VERSION} IS DISTINCT FROM $${known} THEN (${answer}) END AS json
         FROM (SELECT) AS person LEFT JOIN zone_list_versions kept ON kept.user_id = $1`,
      [...params, knownVersion ?? null],
      // Planned once per text (the list's, and each order's page): planning cost PGlite more than the
      // page's own reading, and no value changes the best plan (the person's rows, by index).
      PLANNED_ONCE,
    );
    return row!;
  }

  // Every write below bumps the version of each person whose zones it changed, and moves their
  // number of zones, by the triggers of migration 056 (in the same transaction).

  /** Records a zone of the account (a new one, or a newer view of a known one). */
  async upsert(accountRef: number, zone: CloudflareZoneFields): Promise<void> {
    await this.upsertMany(accountRef, [zone]);
  }

  /**
   * Makes the account's mirror exactly `zones`: drops the zones Cloudflare no longer lists, adds and
   * updates the rest. Run it in a transaction, so a failure leaves the old mirror whole. Answers how
   * many rows it wrote or dropped (an unchanged account: none).
   */
  async replaceForAccount(accountRef: number, zones: CloudflareZoneFields[]): Promise<number> {
    const [gone] = await this.db.query<{ count: number }>(
      `WITH gone AS (DELETE FROM zones WHERE account_ref = $1 AND NOT (zone_id = ANY($2::text[])) RETURNING 1)
       SELECT count(*)::int AS count FROM gone`,
      [accountRef, zones.map((zone) => zone.zoneId)],
    );
    return gone!.count + (await this.upsertMany(accountRef, zones));
  }

  /**
   * Forgets a zone deleted at Cloudflare. Every mirror holding it goes (several users may have added
   * the same Cloudflare account): its id no longer exists anywhere.
   */
  async removeEverywhere(zoneId: string): Promise<void> {
    await this.db.query(`DELETE FROM zones WHERE zone_id = $1`, [zoneId]);
  }

  // One statement for any number of zones: the rows travel as one JSON parameter. A zone as it was
  // is not written again: an unchanged sync writes nothing (no new row versions, which PGlite, without
  // autovacuum, would keep; no new version for the person, so their kept answers stay).
  private async upsertMany(accountRef: number, zones: CloudflareZoneFields[]): Promise<number> {
    if (zones.length === 0) return 0;
    const rows = zones.map((zone) => ({
      zone_id: zone.zoneId,
      domain: zone.domain,
      status: zone.status,
      name_servers: zone.nameServers,
      plan: zone.plan,
    }));
    const [written] = await this.db.query<{ count: number }>(
      `WITH written AS (
       INSERT INTO zones (account_ref, user_id, account_name, zone_id, domain, status, name_servers, plan)
       SELECT $1, (SELECT user_id FROM cloudflare_accounts WHERE id = $1),
              (SELECT account_name FROM cloudflare_accounts WHERE id = $1), z.zone_id, z.domain, z.status,
              z.name_servers, z.plan
         FROM jsonb_to_recordset($2::jsonb)
           AS z(zone_id text, domain text, status text, name_servers text[], plan text)
       ON CONFLICT (account_ref, zone_id)
       DO UPDATE SET domain = EXCLUDED.domain, status = EXCLUDED.status, name_servers = EXCLUDED.name_servers,
                     plan = EXCLUDED.plan
       WHERE (zones.domain, zones.status, zones.name_servers, zones.plan)
             IS DISTINCT FROM (EXCLUDED.domain, EXCLUDED.status, EXCLUDED.name_servers, EXCLUDED.plan)
       RETURNING 1)
       SELECT count(*)::int AS count FROM written`,
      [accountRef, JSON.stringify(rows)],
    );
    return written!.count;
  }
}
