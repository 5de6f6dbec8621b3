import type { Job } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { describeJobProgress, type JobProgress } from '../../../api/jobs/job-progress';

interface BanListSyncProgressProps {
  job: Job;
  progress: JobProgress;
  cancelling: boolean;
  onCancel: () => void;
}

/** A long "Update from Cloudflare" while its job runs: how far, how fast, how long still, and Cancel. */
export function BanListSyncProgress({ job, progress, cancelling, onCancel }: BanListSyncProgressProps) {
  const waiting = job.state === 'queued';
  return (
    <section
      aria-label="Sync with Cloudflare"
      className="mb-4 rounded-card border border-line bg-surface px-4 py-3 shadow-xs"
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-1 items-center gap-2 text-sm">
          <Spinner size="sm" label={null} className="shrink-0 text-brand" />
          <p className="min-w-0">
            <span className="font-medium text-ink">Syncing...</span>{' '}
            <span className="text-ink-muted tabular-nums">
              {waiting ? 'Waiting for its turn' : describeJobProgress(progress)}
            </span>
          </p>
        </div>
        <Button variant="secondary" size="sm" loading={cancelling} onClick={onCancel}>
          {cancelling ? 'Cancelling...' : 'Cancel sync'}
        </Button>
      </div>
      <div
        role="progressbar"
        aria-label="Sync progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent ?? undefined}
        aria-valuetext={describeJobProgress(progress)}
        className="mt-3 h-1.5 overflow-hidden rounded-full bg-line"
      >
        <div className="h-full bg-brand transition-[width]" style={{ width: `${progress.percent ?? 0}%` }} />
      </div>
    </section>
  );
}
