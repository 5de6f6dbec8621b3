import type { Job, JobKind } from '@guardian/contract';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';
import { describeJobProgress, type JobProgress } from '../api/jobs/job-progress';
import { useFollowedJob } from '../api/jobs/follow-job';

interface JobProgressStripProps {
  job: Job;
  progress: JobProgress;
  /** What the strip is, for assistive technology ("Sync with Cloudflare"). */
  label: string;
  /** What is going on, shown first ("Syncing..."). */
  title: string;
  /** The progress bar's name ("Sync progress"). */
  progressLabel: string;
  /** What the job counts, plural ("items", "accounts"). */
  unit?: string;
  /** Shown with `onCancel`: the button's words ("Cancel sync"). */
  cancelLabel?: string;
  cancelling?: boolean;
  onCancel?: () => void;
}

/**
 * A long operation while its job runs (Update from Cloudflare, Clean All, a list's sync): how far,
 * how fast, how long still, and Cancel where it can be cancelled.
 */
export function JobProgressStrip({
  job,
  progress,
  label,
  title,
  progressLabel,
  unit = 'items',
  cancelLabel = 'Cancel',
  cancelling = false,
  onCancel,
}: JobProgressStripProps) {
  const waiting = job.state === 'queued';
  const described = describeJobProgress(progress, unit);
  return (
    <section
      aria-label={label}
      className="mb-4 rounded-card border border-line bg-surface px-4 py-3 shadow-xs"
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-1 items-center gap-2 text-sm">
          <Spinner size="sm" label={null} className="shrink-0 text-brand" />
          <p className="min-w-0">
            <span className="font-medium text-ink">{title}</span>{' '}
            <span className="text-ink-muted tabular-nums">
              {waiting ? 'Waiting for its turn' : described}
            </span>
          </p>
        </div>
        {onCancel && (
          <Button variant="secondary" size="sm" loading={cancelling} onClick={onCancel}>
            {cancelling ? 'Cancelling...' : cancelLabel}
          </Button>
        )}
      </div>
      <div
        role="progressbar"
        aria-label={progressLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent ?? undefined}
        aria-valuetext={described}
        className="mt-3 h-1.5 overflow-hidden rounded-full bg-line"
      >
        <div className="h-full bg-brand transition-[width]" style={{ width: `${progress.percent ?? 0}%` }} />
      </div>
    </section>
  );
}

interface RunningJobStripProps extends Pick<
  JobProgressStripProps,
  'label' | 'title' | 'progressLabel' | 'unit' | 'cancelLabel'
> {
  kind: JobKind;
  /** Told when a cancel could not be asked for (the screen's toast). */
  onCancelFailed: (error: unknown) => void;
}

/**
 * The strip of the person's running job of `kind` while there is one: a kind that is not about one
 * thing (Update of the lists, Clean All, the zones' Update List: one at a time per person), found among
 * their jobs, so it shows after a reload or coming back to the screen too.
 */
export function RunningJobStrip({ kind, onCancelFailed, ...words }: RunningJobStripProps) {
  const followed = useFollowedJob({ find: (job) => job.kind === kind });
  if (!followed.running || !followed.progress) return null;
  return (
    <JobProgressStrip
      {...words}
      job={followed.running}
      progress={followed.progress}
      cancelling={followed.isCancelling}
      onCancel={() => void followed.cancel().catch(onCancelFailed)}
    />
  );
}
