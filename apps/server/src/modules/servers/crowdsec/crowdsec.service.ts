import { type CrowdsecPullResult, type CrowdsecSource, type CrowdsecSourceRequest } from '@guardian/contract';
import { AppError } from '../../../app-error';
import type { TokenCipher } from '../../../crypto/token-cipher';
import type { Db } from '../../../db';
import type { GuardianJobHandler, GuardianJobKinds } from '../../../jobs/job-kinds';
import type { JobQueue } from '../../../jobs/job-queue';
import type { JobOutcome, JobsService } from '../../../jobs/jobs.service';
import { PeriodicSweep } from '../../../periodic-sweep';
import { AuditRepository } from '../../audit';
import type { ServerIdentity, ServersService } from '../servers.service';
import { CrowdsecRepository, type CrowdsecSourceRow, type PullSourceRow } from './crowdsec.repository';
import { LapiError, pullDecisions, type DecisionStream } from './lapi-client';

export const CROWDSEC_PULL = 'crowdsec-pull' satisfies keyof GuardianJobKinds;
/** Sources one sweep queues at most (the rest are due at the next sweep). */
const SWEEP_BATCH = 100;
/** A pull holds its source this long at most (the Local API's time-out, and the decisions handed on). */
const PULL_LEASE_MS = 5 * 60_000;
/** Decisions one pull hands to the lists (or removes) at most; the rest wait for the next pull. */
export const DECISIONS_PER_PULL = 2_000;
/** Decisions kept per source (announced, not yet ended); past it a stream's new ones are not taken. */
export const DECISIONS_KEPT_MAX = 50_000;
/** What the server reports of itself as the bouncer Guardian runs for it. */
const BOUNCER_VERSION = 'guardian-crowdsec-bouncer 1';
/** The scenario, cut to what a ban takes as its jail/scenario. */
const SCENARIO_MAX = 100;

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toSourceDto(row: CrowdsecSourceRow): CrowdsecSource {
  return {
    server_id: row.server_id,
    server_name: row.server_name,
    group_name: row.group_name,
    revoked: row.revoked_at !== null,
    lapi_url: row.lapi_url,
    key_last_four: row.key_last_four,
    pull_interval_seconds: row.pull_interval_seconds,
    last_pull_at: iso(row.last_pull_at),
    last_success_at: iso(row.last_success_at),
    mirrored: row.mirrored,
    refused: row.refused,
    pending: row.pending,
    last_error: row.last_error,
  };
}

const serverNotFound = () => new AppError('NOT_FOUND', 'Server not found.');

/**
 * CrowdSec as a bouncer (issue 39): a CrowdSec server's Local API is pulled by a job on an interval
 * (`crowdsec-pull`, one per server at a time), its ban decisions (scope Ip and Range) handed to the
 * group's lists through the servers' own ban (the policy: allowlist, ceiling, longest expiry; the
 * account's coalesced write), with the decision's time left as the expiry and its scenario in the
 * comment; decisions deleted or expired at CrowdSec are unbanned.
 */
export class CrowdsecBouncer {
  private readonly repository: CrowdsecRepository;
  private readonly trail: AuditRepository;
  private readonly periodic: PeriodicSweep;

  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
    private readonly servers: ServersService,
    private readonly queue: JobQueue<GuardianJobKinds>,
    private readonly jobs: JobsService,
    onError: (err: unknown) => void,
    sweepMs: number,
  ) {
    this.repository = new CrowdsecRepository(db);
    this.trail = new AuditRepository(db);
    this.periodic = new PeriodicSweep(() => this.sweep(), sweepMs, onError);
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  async sources(userId: number): Promise<CrowdsecSource[]> {
    return (await this.repository.sources(userId)).map(toSourceDto);
  }

  async connect(userId: number, serverId: number, input: CrowdsecSourceRequest): Promise<CrowdsecSource> {
    const request = input as Required<CrowdsecSourceRequest>;
    const server = await this.crowdsecServer(userId, serverId);
    if (server.revoked_at)
      throw new AppError('CONFLICT', `The server "${server.name}" is revoked: register a new one.`);
    await this.repository.connect(serverId, {
      lapiUrl: request.lapi_url,
      keyEncrypted: this.cipher.encrypt(request.bouncer_key),
      keyLastFour: request.bouncer_key.slice(-4),
      intervalSeconds: request.pull_interval_seconds,
    });
    return toSourceDto((await this.repository.source(userId, serverId))!);
  }

  async disconnect(userId: number, serverId: number): Promise<void> {
    await this.crowdsecServer(userId, serverId);
    if (!(await this.repository.disconnect(serverId)))
      throw new AppError('NOT_FOUND', 'This server is not connected to a CrowdSec Local API.');
  }

  /** A pull now, for a person who waits (the job's result, or the job when it takes longer). */
  async pullNow(userId: number, serverId: number): Promise<JobOutcome<CrowdsecPullResult>> {
    const server = await this.crowdsecServer(userId, serverId);
    const source = await this.repository.source(userId, serverId);
    if (!source?.lapi_url)
      throw new AppError('CONFLICT', `Connect "${server.name}" to its CrowdSec Local API first.`);
    if (server.revoked_at) throw new AppError('CONFLICT', `The server "${server.name}" is revoked.`);
    return this.jobs.startAndWait<CrowdsecPullResult>({
      kind: CROWDSEC_PULL,
      userId,
      accountId: null,
      target: server.name,
      data: { serverId },
    });
  }

  /** Queues a pull of every source that is due (each claimed by one process); answers how many. */
  async sweep(): Promise<number> {
    const due = await this.repository.claimDue(SWEEP_BATCH);
    for (const source of due)
      await this.queue.enqueue({
        kind: CROWDSEC_PULL,
        userId: source.user_id,
        accountId: null,
        target: source.server_name,
        data: { serverId: source.server_id },
      });
    return due.length;
  }

  readonly run: GuardianJobHandler<'crowdsec-pull'> = async ({ job, signal, progress }) => {
    const source = await this.repository.take(job.data.serverId, PULL_LEASE_MS);
    if (!source) {
      // Revoked, disconnected, or being pulled right now by another run.
      throw new AppError('CONFLICT', 'This CrowdSec server is being pulled already, or no longer connected.');
    }
    let error: string | null = null;
    try {
      const stream = await this.read(source, signal);
      const result = await this.record(source, stream);
      const done = await this.handOn(source, signal, progress);
      await this.servers.heartbeat(this.identityOf(source), BOUNCER_VERSION);
      if (done.mirrored + done.unbanned > 0) await this.audit(source, done.mirrored, done.unbanned);
      return { ...result, ...done };
    } catch (err) {
      error = err instanceof AppError ? err.message : 'Something went wrong on the server during the pull.';
      throw err;
    } finally {
      await this.repository.release(source.server_id, error);
    }
  };

  private async read(source: PullSourceRow, signal: AbortSignal): Promise<DecisionStream> {
    try {
      return await pullDecisions(
        source.lapi_url,
        this.cipher.decrypt(source.key_encrypted),
        !source.started,
        { signal },
      );
    } catch (err) {
      if (err instanceof LapiError) throw new AppError('UPSTREAM', err.message);
      throw err;
    }
  }

  /** Records what the stream said, in one transaction; a failure asks for a startup pull next. */
  private async record(source: PullSourceRow, stream: DecisionStream) {
    const startup = !source.started;
    try {
      return await this.db.transaction(async (tx) => {
        const repository = new CrowdsecRepository(tx);
        const room = Math.max(0, DECISIONS_KEPT_MAX - (await repository.countDecisions(source.server_id)));
        const fresh = stream.fresh.slice(0, room);
        await repository.addFresh(source.server_id, fresh);
        if (startup)
          // The whole set: whatever Guardian holds that is not in it ended while nobody was looking.
          await repository.markGone(
            source.server_id,
            stream.fresh.map((decision) => decision.id),
            'all but these',
          );
        await repository.markGone(
          source.server_id,
          stream.removed.map((decision) => decision.id),
          'these',
        );
        await repository.setStarted(source.server_id);
        return {
          received: stream.fresh.length,
          removed: stream.removed.length,
          skipped: stream.skipped + (stream.fresh.length - fresh.length),
        };
      });
    } catch (err) {
      // The Local API counts these changes as given: read them all again next time.
      await this.repository.restart(source.server_id).catch(() => undefined);
      throw err;
    }
  }

  /** Hands pending decisions to the group's lists and unbans removed ones, through the servers' own calls. */
  private async handOn(source: PullSourceRow, signal: AbortSignal, progress: (done: number) => void) {
    const server = this.identityOf(source);
    let mirrored = 0;
    let refused = 0;
    let unbanned = 0;
    await this.repository.forgetEnded(source.server_id);
    const removing = await this.repository.inState(source.server_id, 'removing', DECISIONS_PER_PULL);
    for (const decision of removing) {
      signal.throwIfAborted();
      // Another decision holding the same address keeps it banned.
      await this.repository.forget(source.server_id, decision.decision_id);
      if (await this.repository.stillBanned(source.server_id, decision.value)) continue;
      try {
        await this.servers.unban(server, { address: decision.value });
        unbanned += 1;
      } catch (err) {
        if (!(err instanceof AppError) || err.code === 'INTERNAL' || err.code === 'UNAVAILABLE') throw err;
      }
      progress(unbanned);
    }
    const pending = await this.repository.inState(
      source.server_id,
      'pending',
      DECISIONS_PER_PULL - removing.length,
    );
    for (const decision of pending) {
      signal.throwIfAborted();
      const seconds = Math.ceil((decision.until.getTime() - Date.now()) / 1000);
      if (seconds <= 0) {
        await this.repository.forget(source.server_id, decision.decision_id);
        continue;
      }
      try {
        await this.servers.ban(server, {
          address: decision.value,
          duration_seconds: seconds,
          scenario: decision.scenario.slice(0, SCENARIO_MAX),
        });
        await this.repository.settle(source.server_id, decision.decision_id, 'mirrored', null);
        mirrored += 1;
      } catch (err) {
        // The group's policy said no (allowlist, ceiling, no lists, an address Cloudflare does not take):
        // recorded against the server by the ban, and here with the decision.
        if (!(err instanceof AppError) || err.code === 'INTERNAL' || err.code === 'UNAVAILABLE') throw err;
        await this.repository.settle(source.server_id, decision.decision_id, 'refused', err.message);
        refused += 1;
      }
      progress(unbanned + mirrored + refused);
    }
    return { mirrored, refused, unbanned };
  }

  private identityOf(source: PullSourceRow): ServerIdentity {
    return {
      id: source.server_id,
      name: source.server_name,
      groupId: source.group_id,
      user: Object.freeze({ id: source.user_id, email: source.email, level: source.level }),
    };
  }

  /** One event a pull that changed the lists: the job is no request, so the trail is written here. */
  private async audit(source: PullSourceRow, mirrored: number, unbanned: number): Promise<void> {
    const actor = `${source.email} (server "${source.server_name}")`;
    await this.trail.append({
      userId: source.user_id,
      actor,
      address: '',
      action: 'crowdsec.mirror',
      request: `job ${CROWDSEC_PULL}`,
      accountId: null,
      zoneId: null,
      target: { server_id: source.server_id, banned: mirrored, unbanned },
      outcome: 'success',
      status: 200,
      message: null,
      summary: `${actor} mirrored CrowdSec's decisions: ${mirrored} banned, ${unbanned} unbanned`,
    });
  }

  /** The person's server of this id, of integration CrowdSec: 404 for another's, 409 for another integration. */
  private async crowdsecServer(userId: number, serverId: number) {
    const server = await this.repository.server(userId, serverId);
    if (!server) throw serverNotFound();
    if (server.integration !== 'crowdsec')
      throw new AppError(
        'CONFLICT',
        `The server "${server.name}" is a ${server.integration} server: only a CrowdSec server pulls a Local API.`,
      );
    return server;
  }
}
