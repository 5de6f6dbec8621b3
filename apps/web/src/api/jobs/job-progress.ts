import { useState } from 'react';
import type { Job, JobKind } from '@guardian/contract';
import { counted } from '../../lib/counted';

/** How far a running job is, in numbers a person reads. */
export interface JobProgress {
  done: number;
  /** Null while the job has not counted its work yet. */
  total: number | null;
  /** 0 to 100, null without a total. */
  percent: number | null;
  /** Items a second, measured in this browser between polls; null until two polls apart tell it. */
  rate: number | null;
  /** Seconds until it ends at that rate; null when not known. */
  secondsLeft: number | null;
}

/** What each kind of job counts as it goes (singular, plural). */
export const JOB_PROGRESS_UNITS: Record<JobKind, [string, string]> = {
  'ban-list-sync': ['item', 'items'],
  'ban-lists-update': ['account', 'accounts'],
  'ban-lists-clean': ['list', 'lists'],
  'zones-sync': ['page', 'pages'],
  // Ban everywhere and Remove from lists count the lists of the account done.
  'ban-everywhere': ['list', 'lists'],
  'ip-search-remove': ['list', 'lists'],
  // An import counts the items it records once Cloudflare took them (after a lost answer, the list's
  // items read back first).
  'ban-list-import': ['item', 'items'],
  'ban-list-expiry': ['item', 'items'],
  // The servers' bans and unbans of an account written so far.
  'server-bans': ['ban', 'bans'],
  // A CrowdSec pull counts the decisions it handed to the lists or removed.
  'crowdsec-pull': ['decision', 'decisions'],
};

/** "1 item", "10,000 items". */
export function countOf(n: number, kind: JobKind): string {
  return counted(n, ...JOB_PROGRESS_UNITS[kind]);
}

interface Sample {
  id: string;
  at: number;
  done: number;
}

/** The least time between two polls that a rate is measured over (one poll's jitter is noise). */
const MIN_RATE_WINDOW_MS = 900;

/**
 * The progress of `job` as of `now`, its rate measured from `first` (the first poll this page saw of
 * it): the browser's own clock on both ends, so a server clock set differently does not skew it.
 */
export function jobProgressOf(job: Pick<Job, 'done' | 'total'>, first: Omit<Sample, 'id'>, now: number) {
  const total = job.total;
  const percent = total ? Math.min(100, Math.floor((job.done / total) * 100)) : total === 0 ? 100 : null;
  const elapsed = now - first.at;
  const rate =
    elapsed >= MIN_RATE_WINDOW_MS && job.done > first.done
      ? ((job.done - first.done) * 1000) / elapsed
      : null;
  const secondsLeft = rate && total !== null ? Math.max(0, Math.ceil((total - job.done) / rate)) : null;
  return { done: job.done, total, percent, rate, secondsLeft } satisfies JobProgress;
}

/**
 * The progress of a polled job, its rate measured from the first answer this component saw to the
 * latest (`updatedAt`: when the latest arrived, the query's `dataUpdatedAt`).
 */
export function useJobProgress(
  job: Pick<Job, 'id' | 'done' | 'total'> | undefined,
  updatedAt: number,
): JobProgress | null {
  const [first, setFirst] = useState<Sample | null>(null);
  if (!job) return null;
  const sample = first?.id === job.id ? first : { id: job.id, at: updatedAt, done: job.done };
  if (sample !== first) setFirst(sample);
  return jobProgressOf(job, sample, updatedAt);
}

/** "12 s", "3 min", "1 h 5 min": a duration to the unit that matters. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/**
 * One line saying how far it is: "12,000 of 500,000 items (2%) · 45,000 items/s · about 11 s left".
 * `unit` names what is counted (items of a list, lists of Update).
 */
export function describeJobProgress(progress: JobProgress, unit = 'items'): string {
  const { done, total, percent, rate, secondsLeft } = progress;
  const parts = [
    total === null
      ? `${done.toLocaleString('en-US')} ${unit}`
      : `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${unit} (${percent}%)`,
  ];
  if (rate !== null) parts.push(`${Math.round(rate).toLocaleString('en-US')} ${unit}/s`);
  if (secondsLeft !== null) parts.push(`about ${formatDuration(secondsLeft)} left`);
  return parts.join(' · ');
}
