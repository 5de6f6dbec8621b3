import type { SyncZonesResponse } from '@guardian/contract';
import type { GuardianJobHandler } from '../../jobs/job-kinds';
import type { JobsService } from '../../jobs/jobs.service';
import type { ZonesService } from './zones.service';

/**
 * Zone sync ("Update List") as a job (src/jobs/): the call waits for a short one and answers as
 * before; a longer one answers 202 with its job, whose progress is the zones pages read of all.
 */
export class ZonesSyncJobs {
  constructor(
    private readonly zones: ZonesService,
    private readonly jobs: JobsService,
  ) {}

  readonly run: GuardianJobHandler<'zones-sync'> = ({ job, signal, progress }) =>
    this.zones.sync(job.userId, { signal, progress });

  /** Queues the sync without waiting for it (the jobs view shows it). */
  async queue(userId: number): Promise<void> {
    await this.jobs.queue.enqueue({ kind: 'zones-sync', userId, target: 'All zones', data: {} });
  }

  /** Starts the sync; its answer when it ended within the wait, else the job. */
  sync(userId: number) {
    return this.jobs.startAndWait<SyncZonesResponse>({
      kind: 'zones-sync',
      userId,
      target: 'All zones',
      data: {},
    });
  }
}
