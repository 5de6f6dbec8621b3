import type { BanList } from '@guardian/contract';
import type { JobKind } from '../../jobs/job-queue';
import type { JobsService } from '../../jobs/jobs.service';
import type { BanListsService } from './ban-lists.service';

export const BAN_LISTS_UPDATE = 'ban-lists-update';
export const BAN_LISTS_CLEAN = 'ban-lists-clean';

/**
 * "Update" (every account's lists read again) and "Clean All" (every list emptied) as jobs
 * (src/jobs/): the call waits for a short one and answers the lists as before; a longer one
 * answers 202 with its job, which goes on (and survives a restart) while the screen shows its
 * progress: accounts read, or lists emptied, of all.
 */
export class BanListsJobs {
  constructor(
    private readonly banLists: BanListsService,
    private readonly jobs: JobsService,
    /** How long the call waits before it answers with the job instead. */
    private readonly waitMs: number,
  ) {}

  readonly updateKind: JobKind = {
    run: ({ job, signal, progress }) => this.banLists.update(job.userId, { signal, progress }),
  };

  readonly cleanKind: JobKind = {
    run: ({ job, signal, progress }) => this.banLists.clean(job.userId, { signal, progress, jobId: job.id }),
  };

  /** Starts "Update"; the lists when it ended within the wait, else the job. */
  update(userId: number) {
    return this.start(BAN_LISTS_UPDATE, userId);
  }

  /** Starts "Clean All"; the lists when it ended within the wait, else the job. */
  clean(userId: number) {
    return this.start(BAN_LISTS_CLEAN, userId);
  }

  private async start(kind: string, userId: number) {
    const outcome = await this.jobs.startAndWait(
      {
        kind,
        userId,
        target: 'All lists',
        // Started by a person who waits: a failure is answered, not tried again behind their back
        // (Cloudflare calls are retried within the call already); a restart still carries it on.
        data: { maxAttempts: 1 },
      },
      this.waitMs,
    );
    return 'job' in outcome ? outcome : { lists: outcome.result as BanList[] };
  }
}
