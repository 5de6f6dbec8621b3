import type { IpSearchActionAnswer, IpSearchJobResult, IpSearchListOutcome, Job } from '@guardian/contract';
import { CheckCircle2, CircleAlert, LoaderCircle, X } from 'lucide-react';
import { Button } from '../ui/button';
import { counted } from '../../lib/counted';

/** One account's part of Ban everywhere or Remove from lists, with its job as last seen. */
export interface ProgressPart {
  account_name: string;
  lists: IpSearchActionAnswer['parts'][number]['lists'];
  job: Job;
}

export interface ActionRun {
  /** "Ban 203.0.113.7 everywhere", "Remove 203.0.113.7 from 2 lists". */
  title: string;
  parts: ProgressPart[];
}

const OUTCOME_WORDS: Record<IpSearchListOutcome, string> = {
  added: 'added',
  already: 'already listed',
  removed: 'removed',
  gone: 'already gone',
};

function outcomesOf(job: Job): string | null {
  if (job.state !== 'succeeded' || !job.result) return null;
  const { lists } = job.result as IpSearchJobResult;
  if (!Array.isArray(lists)) return null;
  return lists.map((list) => `${list.list_name}: ${OUTCOME_WORDS[list.outcome]}`).join(', ');
}

function PartState({ job, listCount }: { job: Job; listCount: number }) {
  if (job.state === 'succeeded')
    return (
      <span className="inline-flex items-center gap-1 font-medium text-success">
        <CheckCircle2 aria-hidden="true" className="size-4" /> Done
      </span>
    );
  if (job.state === 'failed' || job.state === 'cancelled')
    return (
      <span className="inline-flex items-center gap-1 font-medium text-danger-hover">
        <CircleAlert aria-hidden="true" className="size-4" />
        {job.state === 'cancelled' ? 'Cancelled' : 'Failed'}
      </span>
    );
  return (
    <span className="inline-flex items-center gap-1 text-ink-muted">
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      {job.state === 'queued' ? 'Waiting' : `${job.done} of ${counted(job.total ?? listCount, 'list')}`}
    </span>
  );
}

/** "Done in every account.", "1 of 2 accounts failed; the others are done.", "1 of 1 account was cancelled." */
function outcomeOf(parts: ProgressPart[]): string {
  const failed = parts.filter((part) => part.job.state === 'failed').length;
  const cancelled = parts.filter((part) => part.job.state === 'cancelled').length;
  const notDone = failed + cancelled;
  if (notDone === 0) return 'Done in every account.';
  const what =
    failed === 0
      ? cancelled === 1
        ? 'was cancelled'
        : 'were cancelled'
      : cancelled === 0
        ? 'failed'
        : 'failed or were cancelled';
  const others = notDone < parts.length ? '; the others are done.' : '.';
  return `${notDone} of ${counted(parts.length, 'account')} ${what}${others}`;
}

/**
 * Each account's progress and outcome of an action: its lists, its state (waiting, n of m lists,
 * done with each list's outcome, failed with the reason in words). One account's failure leaves the
 * others' rows as they end.
 */
export function ActionProgress({ run, onDismiss }: { run: ActionRun; onDismiss?: () => void }) {
  const running = run.parts.some((part) => ['queued', 'running'].includes(part.job.state));
  return (
    <section
      aria-label={run.title}
      aria-busy={running || undefined}
      className="space-y-3 rounded-control border border-line bg-surface px-4 py-3"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-sm font-semibold text-ink">{run.title}</h2>
          <p className="text-sm text-ink-muted" role="status">
            {running ? 'Working on each account...' : outcomeOf(run.parts)}
          </p>
        </div>
        {!running && onDismiss && (
          <Button variant="ghost" size="icon" aria-label="Dismiss" onClick={onDismiss}>
            <X aria-hidden="true" className="size-4" />
          </Button>
        )}
      </div>
      <ul className="divide-y divide-line">
        {run.parts.map((part) => {
          const outcomes = outcomesOf(part.job);
          return (
            <li key={part.job.id} className="space-y-1 py-2 text-sm" aria-label={part.account_name}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium text-ink">{part.account_name}</span>
                <PartState job={part.job} listCount={part.lists.length} />
              </div>
              <p className="break-all text-ink-muted">
                {outcomes ?? part.lists.map((list) => list.list_name).join(', ')}
              </p>
              {part.job.state === 'failed' && part.job.error && (
                <p className="text-danger-hover">{part.job.error}</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
