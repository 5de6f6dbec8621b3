import type { Queryable } from '../../../db';
import type { LapiDecision } from './lapi-client';

/** A CrowdSec server of a person's, with its Local API when connected, and its decisions' counts. */
export interface CrowdsecSourceRow {
  server_id: number;
  server_name: string;
  group_name: string;
  revoked_at: Date | null;
  lapi_url: string | null;
  key_last_four: string | null;
  pull_interval_seconds: number | null;
  last_pull_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  mirrored: number;
  refused: number;
  pending: number;
}

/** A source as a pull reads it: the server, its person and the encrypted key. */
export interface PullSourceRow {
  server_id: number;
  server_name: string;
  group_id: number;
  user_id: number;
  email: string;
  level: number;
  lapi_url: string;
  key_encrypted: string;
  started: boolean;
}

export interface DecisionRow {
  decision_id: number;
  value: string;
  scenario: string;
  until: Date;
}

const SOURCE_SELECT = `
  SELECT s.id AS server_id, s.name AS server_name, g.name AS group_name, s.revoked_at,
         c.lapi_url, c.key_last_four, c.pull_interval_seconds, c.last_pull_at, c.last_success_at, c.last_error,
         (SELECT count(*)::int FROM crowdsec_decisions d
           WHERE d.server_id = s.id AND d.state = 'mirrored' AND d.until > now()) AS mirrored,
         (SELECT count(*)::int FROM crowdsec_decisions d
           WHERE d.server_id = s.id AND d.state = 'refused' AND d.until > now()) AS refused,
         (SELECT count(*)::int FROM crowdsec_decisions d WHERE d.server_id = s.id AND d.state = 'pending') AS pending
    FROM servers s JOIN server_groups g ON g.id = s.group_id
    LEFT JOIN crowdsec_sources c ON c.server_id = s.id`;

/** The SQL of CrowdSec as a bouncer: each CrowdSec server's Local API, and the decisions read from it. */
export class CrowdsecRepository {
  constructor(private readonly db: Queryable) {}

  sources(userId: number): Promise<CrowdsecSourceRow[]> {
    return this.db.query<CrowdsecSourceRow>(
      `${SOURCE_SELECT} WHERE s.user_id = $1 AND s.integration = 'crowdsec' ORDER BY s.id`,
      [userId],
    );
  }

  async source(userId: number, serverId: number): Promise<CrowdsecSourceRow | undefined> {
    const [row] = await this.db.query<CrowdsecSourceRow>(
      `${SOURCE_SELECT} WHERE s.user_id = $1 AND s.id = $2 AND s.integration = 'crowdsec'`,
      [userId, serverId],
    );
    return row;
  }

  /** The person's server of this id, whatever its integration (to tell "not yours" from "not CrowdSec"). */
  async server(
    userId: number,
    serverId: number,
  ): Promise<{ name: string; integration: string; revoked_at: Date | null } | undefined> {
    const [row] = await this.db.query<{ name: string; integration: string; revoked_at: Date | null }>(
      'SELECT name, integration, revoked_at FROM servers WHERE user_id = $1 AND id = $2',
      [userId, serverId],
    );
    return row;
  }

  /** Connects (or reconnects) a server: the next pull is a startup pull, due now. */
  async connect(
    serverId: number,
    source: { lapiUrl: string; keyEncrypted: string; keyLastFour: string; intervalSeconds: number },
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO crowdsec_sources (server_id, lapi_url, key_encrypted, key_last_four, pull_interval_seconds)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (server_id) DO UPDATE SET lapi_url = $2, key_encrypted = $3, key_last_four = $4,
         pull_interval_seconds = $5, started = false, next_pull_at = now(), last_error = NULL,
         updated_at = now()`,
      [serverId, source.lapiUrl, source.keyEncrypted, source.keyLastFour, source.intervalSeconds],
    );
  }

  async disconnect(serverId: number): Promise<boolean> {
    const rows = await this.db.query(
      'DELETE FROM crowdsec_sources WHERE server_id = $1 RETURNING server_id',
      [serverId],
    );
    return rows.length > 0;
  }

  /**
   * Sources whose pull is due, claimed: their next pull moved an interval on in the same statement,
   * so of several processes sweeping one queues it. Revoked servers and disabled people are not pulled.
   */
  claimDue(limit: number): Promise<{ server_id: number; user_id: number; server_name: string }[]> {
    return this.db.query(
      `UPDATE crowdsec_sources c SET next_pull_at = now() + c.pull_interval_seconds * interval '1 second'
         FROM servers s JOIN users u ON u.id = s.user_id
        WHERE c.server_id = s.id AND s.revoked_at IS NULL AND NOT u.disabled
          AND c.server_id IN (SELECT server_id FROM crowdsec_sources WHERE next_pull_at <= now()
                               ORDER BY next_pull_at LIMIT $1)
        RETURNING c.server_id, s.user_id, s.name AS server_name`,
      [limit],
    );
  }

  /**
   * Takes the source for one pull until `leaseMs` from now (a pull now puts the next one an interval
   * away); undefined when another pull holds it.
   */
  async take(serverId: number, leaseMs: number): Promise<PullSourceRow | undefined> {
    const [row] = await this.db.query<PullSourceRow>(
      `UPDATE crowdsec_sources c SET pulling_until = now() + $2 * interval '1 millisecond', last_pull_at = now(),
              next_pull_at = greatest(c.next_pull_at, now() + c.pull_interval_seconds * interval '1 second')
         FROM servers s JOIN users u ON u.id = s.user_id
        WHERE c.server_id = $1 AND s.id = c.server_id AND s.revoked_at IS NULL AND NOT u.disabled
          AND (c.pulling_until IS NULL OR c.pulling_until < now())
        RETURNING c.server_id, s.name AS server_name, s.group_id, s.user_id, u.email, u.level, c.lapi_url,
                  c.key_encrypted, c.started`,
      [serverId, leaseMs],
    );
    return row;
  }

  /** Ends a pull: its lease released, how it went recorded (a failure asks for a startup pull next). */
  async release(serverId: number, error: string | null): Promise<void> {
    await this.db.query(
      `UPDATE crowdsec_sources SET pulling_until = NULL, last_error = $2,
              last_success_at = CASE WHEN $2::text IS NULL THEN now() ELSE last_success_at END
        WHERE server_id = $1`,
      [serverId, error],
    );
  }

  async countDecisions(serverId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM crowdsec_decisions WHERE server_id = $1',
      [serverId],
    );
    return row?.n ?? 0;
  }

  /** Records a stream's fresh ban decisions as pending (one already known is left as it is). */
  async addFresh(serverId: number, decisions: (LapiDecision & { seconds: number })[]): Promise<void> {
    if (decisions.length === 0) return;
    await this.db.query(
      `INSERT INTO crowdsec_decisions (server_id, decision_id, value, scenario, origin, until, state)
       SELECT $1, d.id, d.value, d.scenario, d.origin, now() + d.seconds * interval '1 second', 'pending'
         FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[])
              AS d (id, value, scenario, origin, seconds)
       ON CONFLICT (server_id, decision_id) DO NOTHING`,
      [
        serverId,
        decisions.map((decision) => decision.id),
        decisions.map((decision) => decision.value),
        decisions.map((decision) => decision.scenario),
        decisions.map((decision) => decision.origin ?? ''),
        decisions.map((decision) => decision.seconds),
      ],
    );
  }

  /**
   * Decisions gone at the Local API (`ids`, or with `keep`, every one not in it: a startup pull's
   * answer is the whole set): mirrored ones are to be removed from the lists, the others forgotten.
   */
  async markGone(serverId: number, ids: number[], mode: 'these' | 'all but these'): Promise<void> {
    const match =
      mode === 'these' ? 'decision_id = ANY($2::bigint[])' : 'NOT (decision_id = ANY($2::bigint[]))';
    await this.db.query(
      `DELETE FROM crowdsec_decisions WHERE server_id = $1 AND state IN ('pending', 'refused') AND ${match}`,
      [serverId, ids],
    );
    await this.db.query(
      `UPDATE crowdsec_decisions SET state = 'removing' WHERE server_id = $1 AND state = 'mirrored' AND ${match}`,
      [serverId, ids],
    );
  }

  async setStarted(serverId: number): Promise<void> {
    await this.db.query('UPDATE crowdsec_sources SET started = true WHERE server_id = $1', [serverId]);
  }

  /** Asks for a startup pull next (a stream's changes were read but not all recorded). */
  async restart(serverId: number): Promise<void> {
    await this.db.query('UPDATE crowdsec_sources SET started = false WHERE server_id = $1', [serverId]);
  }

  inState(serverId: number, state: 'pending' | 'removing', limit: number): Promise<DecisionRow[]> {
    return this.db.query<DecisionRow>(
      `SELECT decision_id, value, scenario, until FROM crowdsec_decisions
        WHERE server_id = $1 AND state = $2 ORDER BY decision_id LIMIT $3`,
      [serverId, state, limit],
    );
  }

  async settle(serverId: number, decisionId: number, state: 'mirrored' | 'refused', reason: string | null) {
    await this.db.query(
      'UPDATE crowdsec_decisions SET state = $3, reason = $4 WHERE server_id = $1 AND decision_id = $2',
      [serverId, decisionId, state, reason],
    );
  }

  async forget(serverId: number, decisionId: number): Promise<void> {
    await this.db.query('DELETE FROM crowdsec_decisions WHERE server_id = $1 AND decision_id = $2', [
      serverId,
      decisionId,
    ]);
  }

  /** Whether another decision of the server still bans this value (then removing one does not unban it). */
  async stillBanned(serverId: number, value: string): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM crowdsec_decisions
        WHERE server_id = $1 AND value = $2 AND state = 'mirrored' AND until > now() LIMIT 1`,
      [serverId, value],
    );
    return rows.length > 0;
  }

  /** Forgets decisions past their end (their items expire at Cloudflare on their own): the table stays bounded. */
  async forgetEnded(serverId: number): Promise<void> {
    await this.db.query(
      `DELETE FROM crowdsec_decisions WHERE server_id = $1 AND state IN ('mirrored', 'refused', 'pending')
          AND until < now()`,
      [serverId],
    );
  }
}
