import { JOB_KIND_LABELS, type Job, type JobState } from '@guardian/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../../components/ui/table';
import { countOf } from '../../../api/jobs/job-progress';
import { hasEnded } from '../../../api/jobs/keys';

const STATES: Record<JobState, { label: string; tone: BadgeTone }> = {
  queued: { label: 'Waiting', tone: 'grey' },
  running: { label: 'Running', tone: 'blue' },
  succeeded: { label: 'Succeeded', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  cancelled: { label: 'Cancelled', tone: 'yellow' },
};

const moment = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const formatMoment = (iso: string | null) => (iso ? moment.format(new Date(iso)) : '—');

/** What an ended job came to, in words: a synced list's item count, or why it failed. */
export function outcomeOf(job: Job): string {
  if (job.state === 'failed') return job.error ?? 'It failed.';
  if (job.state === 'cancelled') return `Cancelled after ${countOf(job.done, job.kind)}.`;
  if (job.state === 'succeeded') {
    const items = (job.result as { items?: unknown } | null)?.items;
    return job.kind === 'ban-list-sync' && typeof items === 'number'
      ? `${countOf(items, job.kind)} in the list.`
      : 'Done.';
  }
  // A run that stopped and waits for another says why.
  return job.error ? `Trying again: ${job.error}` : '—';
}

function progressText(job: Job): string {
  const { done, total, kind } = job;
  // It succeeded: it did all of it, whatever its last progress report said.
  if (job.state === 'succeeded' && total !== null) return `All ${countOf(total, kind)}`;
  if (total === null) return job.state === 'queued' ? 'Not started' : countOf(done, kind);
  return `${done.toLocaleString('en-US')} of ${countOf(total, kind)}`;
}

function JobProgressCell({ job }: { job: Job }) {
  const percent = job.total
    ? Math.min(100, Math.floor((job.done / job.total) * 100))
    : job.total === 0
      ? 100
      : 0;
  return (
    <TableCell label="Progress" className="min-w-40">
      <div className="min-w-0">
        <span className="text-sm text-ink tabular-nums">{progressText(job)}</span>
        {!hasEnded(job) && (
          <div
            role="progressbar"
            aria-label={`Progress of ${JOB_KIND_LABELS[job.kind]} of ${job.target}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="mt-1.5 h-1.5 w-full max-w-40 overflow-hidden rounded-full bg-line"
          >
            <div className="h-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        )}
      </div>
    </TableCell>
  );
}

interface JobsTableProps {
  jobs: Job[];
  loading: boolean;
  /** Everyone's operations: say whose each is. */
  showStartedBy: boolean;
  /** Only the person who started an operation cancels it. */
  canCancel: (job: Job) => boolean;
  cancellingId: string | null;
  onCancel: (job: Job) => void;
}

/** The operations, newest first: what, on what, how far, how it ended, when; Cancel while one runs. */
export function JobsTable({
  jobs,
  loading,
  showStartedBy,
  canCancel,
  cancellingId,
  onCancel,
}: JobsTableProps) {
  // A column of Cancel only while one of the person's operations runs (an empty strip on every card otherwise).
  const cancellable = jobs.some((job) => !hasEnded(job) && canCancel(job));
  return (
    <DataTable
      caption="Operations"
      columns={[
        'Operation',
        showStartedBy && 'Started By',
        'Progress',
        'State',
        'Result',
        'Started',
        'Finished',
        cancellable && 'Actions',
      ]}
      loading={loading}
      loadingText="Loading operations..."
      rows={jobs}
      empty="No operations yet."
    >
      {(job) => {
        const state = STATES[job.state];
        const cancelling = cancellingId === job.id || job.cancel_requested;
        return (
          <TableRow key={job.id}>
            <TableCell label="Operation" className="min-w-48">
              <div className="min-w-0">
                <span className="font-medium">{JOB_KIND_LABELS[job.kind]}</span>
                <span className="block text-xs break-words text-ink-muted">
                  {job.target}
                  {job.account_name && ` · ${job.account_name}`}
                </span>
              </div>
            </TableCell>
            {showStartedBy && (
              <TableCell label="Started By" className="wrap-anywhere">
                {job.started_by}
              </TableCell>
            )}
            <JobProgressCell job={job} />
            <TableCell label="State">
              <Badge tone={state.tone}>{state.label}</Badge>
            </TableCell>
            <TableCell
              label="Result"
              className={job.state === 'failed' ? 'max-w-72 text-danger-hover' : 'max-w-72'}
            >
              {outcomeOf(job)}
            </TableCell>
            <TableCell label="Started" className="whitespace-nowrap text-ink-muted">
              {formatMoment(job.started_at ?? job.created_at)}
            </TableCell>
            <TableCell label="Finished" className="whitespace-nowrap text-ink-muted">
              {formatMoment(job.finished_at)}
            </TableCell>
            {cancellable && (
              <TableActionsCell label="Actions" align="end">
                {!hasEnded(job) && canCancel(job) && (
                  <Button
                    variant="secondary"
                    size="sm"
                    loading={cancelling}
                    aria-label={`Cancel ${JOB_KIND_LABELS[job.kind]} of ${job.target}`}
                    onClick={() => onCancel(job)}
                  >
                    {cancelling ? 'Cancelling...' : 'Cancel'}
                  </Button>
                )}
              </TableActionsCell>
            )}
          </TableRow>
        );
      }}
    </DataTable>
  );
}
