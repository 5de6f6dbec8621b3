import { useEffect, useState } from 'react';
import { clsx } from 'clsx';
import type { Job } from '@guardian/contract';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageHeader } from '../../components/ui/page-header';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useCancelJobMutation } from '../../api/jobs/job-cancel-mutation';
import { useJobsQuery } from '../../api/jobs/jobs-query';
import { useMarkJobsSeenMutation } from '../../api/jobs/jobs-seen-mutation';
import { hasEnded, type JobsScope } from '../../api/jobs/keys';
import { JobsTable } from './components/jobs-table';

/** While an operation runs the view follows it closely; otherwise it looks now and then. */
const RUNNING_POLL_MS = 2_000;
const IDLE_POLL_MS = 30_000;

/** /dashboard/jobs: the person's long operations (administrators: everyone's too), opened from the bell. */
export default function JobsScreen() {
  const { email, isAdmin } = useSession();
  const [scope, setScope] = useState<JobsScope>('mine');
  const jobs = useJobsQuery(scope, {
    refetchInterval: (list) => (list?.jobs.some((job) => !hasEnded(job)) ? RUNNING_POLL_MS : IDLE_POLL_MS),
  });
  const cancelJob = useCancelJobMutation();
  const markSeen = useMarkJobsSeenMutation();
  const toast = useToast();

  // Looking here is what puts the bell's dot out: on opening, and when another one ends meanwhile.
  const unseen = jobs.data?.unseen;
  const { mutate: seen } = markSeen;
  useEffect(() => {
    if (unseen === undefined || unseen > 0) seen();
  }, [unseen, seen]);

  const cancel = (job: Job) =>
    cancelJob.mutate(job, {
      onError: (error) =>
        toast.error(actionErrorMessage(error, 'Failed to cancel the operation. Please try again.')),
    });

  return (
    <>
      <PageHeader
        title="Operations"
        description="Long operations and how they ended: progress, result, and why one failed."
        actions={isAdmin && <ScopeSwitch scope={scope} onChange={setScope} />}
      />
      {jobs.isError ? (
        <ErrorMessage onRetry={() => void jobs.refetch()}>Failed to fetch operations.</ErrorMessage>
      ) : (
        <JobsTable
          jobs={jobs.data?.jobs ?? []}
          loading={jobs.isPending}
          showStartedBy={scope === 'all'}
          canCancel={(job) => job.started_by === email}
          cancellingId={cancelJob.isPending ? cancelJob.variables.id : null}
          onCancel={cancel}
        />
      )}
    </>
  );
}

const SCOPES: { scope: JobsScope; label: string }[] = [
  { scope: 'mine', label: 'Mine' },
  { scope: 'all', label: 'Everyone' },
];

/** An administrator's choice of whose operations to list. */
function ScopeSwitch({ scope, onChange }: { scope: JobsScope; onChange: (scope: JobsScope) => void }) {
  return (
    <div
      role="group"
      aria-label="Whose operations"
      className="inline-flex rounded-control border border-line-strong bg-surface p-0.5 shadow-sm"
    >
      {SCOPES.map((option) => (
        <button
          key={option.scope}
          type="button"
          aria-pressed={scope === option.scope}
          onClick={() => onChange(option.scope)}
          className={clsx(
            'h-9 rounded-[calc(var(--radius-control)-2px)] px-4 text-sm font-medium transition-colors',
            scope === option.scope ? 'bg-brand-soft text-brand-hover' : 'text-ink-muted hover:text-ink',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
