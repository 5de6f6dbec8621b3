import type { Job } from '@guardian/contract';
import { JobProgressStrip } from '../../../components/job-progress-strip';
import type { JobProgress } from '../../../api/jobs/job-progress';

interface BanListSyncProgressProps {
  job: Job;
  progress: JobProgress;
  cancelling: boolean;
  onCancel: () => void;
}

/** A long "Update from Cloudflare" while its job runs: how far, how fast, how long still, and Cancel. */
export function BanListSyncProgress({ job, progress, cancelling, onCancel }: BanListSyncProgressProps) {
  return (
    <JobProgressStrip
      job={job}
      progress={progress}
      label="Sync with Cloudflare"
      title="Syncing..."
      progressLabel="Sync progress"
      cancelLabel="Cancel sync"
      cancelling={cancelling}
      onCancel={onCancel}
    />
  );
}
