import type { BanList } from '@guardian/contract';
import type { GuardianJobHandler } from '../../jobs/job-kinds';
import type { JobsService } from '../../jobs/jobs.service';
import type { BanListsService } from './ban-lists.service';

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
  ) {}

  readonly runUpdate: GuardianJobHandler<'ban-lists-update'> = ({ job, signal, progress }) =>
    this.banLists.update(job.userId, { signal, progress });

  readonly runClean: GuardianJobHandler<'ban-lists-clean'> = ({ job, signal, progress }) =>
    this.banLists.clean(job.userId, { signal, progress, jobId: job.id });

  /** Starts "Update"; the lists when it ended within the wait, else the job. */
  update(userId: number) {
    return this.start('ban-lists-update', userId);
  }

  /** Starts "Clean All"; the lists when it ended within the wait, else the job. */
  clean(userId: number) {
    return this.start('ban-lists-clean', userId);
  }

  private start(kind: 'ban-lists-update' | 'ban-lists-clean', userId: number) {
    return this.jobs.startAndWait<BanList[]>({ kind, userId, target: 'All lists', data: {} });
  }
}
