import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { History, RotateCcw } from 'lucide-react';
import type { Snapshot, SnapshotKind } from '@guardian/contract';
import type { SnapshotFilter } from '../api/snapshots/keys';
import { useSnapshotPolicyQuery } from '../api/snapshots/snapshot-policy-query';
import { useRestoreSnapshotMutation } from '../api/snapshots/snapshot-restore-mutation';
import { refetchSnapshots, useSnapshotsQuery } from '../api/snapshots/snapshots-query';
import { actionErrorMessage } from '../lib/api';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { useConfirm, type ConfirmOptions } from './ui/confirm-dialog';
import { useToast } from './ui/toast';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** How long a restore stays possible, in words: '7 days', '1 day', '36 hours'. */
export function retentionText(hours: number): string {
  const [count, unit] = hours % 24 === 0 ? [hours / 24, 'day'] : [hours, 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** What Restore brings back, by what the action removes. */
const RESTORED: Record<SnapshotKind, string> = {
  'clean-all':
    'Restore brings the items back with their comments, expiry and who added them (items whose expiry passes meanwhile stay removed).',
  'ban-list':
    'Restore brings the list back with its items, their comments, expiry and who added them (items whose expiry passes meanwhile stay removed).',
  'dns-record': 'Restore brings the record back as it was: content, TTL, proxy status and comment.',
};

/**
 * The sentence a destructive action's confirm adds after the spec's words ("irreversible", "cannot be
 * undone"): what Restore can bring back, and for how long Guardian keeps the copy.
 */
export function useRestoreNote(kind: SnapshotKind): string {
  const policy = useSnapshotPolicyQuery().data;
  const howLong = policy
    ? `for ${retentionText(policy.retention_hours)} (your ${policy.kept_per_person} most recent copies)`
    : 'for a while';
  return `Guardian keeps a copy ${howLong}: ${RESTORED[kind]}`;
}

/** Restores a snapshot with the toasts every restore shows. */
function useRestore() {
  const restore = useRestoreSnapshotMutation();
  const toast = useToast();
  return {
    restoring: restore.isPending ? restore.variables : undefined,
    run: (snapshot: Snapshot) =>
      restore.mutate(snapshot, {
        onSuccess: () => toast.success(`Restored: ${snapshot.summary}.`),
        onError: (error) => toast.error(actionErrorMessage(error, 'Failed to restore.')),
      }),
  };
}

/**
 * The success toast of a destructive action, with a Restore button: it finds the snapshot the action
 * just took (`match`) and puts it back. `filter` is the page's own snapshot list.
 */
function useUndoableSuccess(filter: SnapshotFilter) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const restore = useRestore();
  return useCallback(
    (message: string, match: (snapshot: Snapshot) => boolean) => {
      toast.success(message, {
        action: {
          label: 'Restore',
          onClick: () =>
            void refetchSnapshots(queryClient, filter).then(
              (snapshots) => {
                const snapshot = snapshots.find((each) => each.restored_at === null && match(each));
                if (snapshot) restore.run(snapshot);
                else toast.error('Nothing to restore: it was restored already or has expired.');
              },
              (error: unknown) => toast.error(actionErrorMessage(error, 'Failed to restore.')),
            ),
        },
      });
    },
    [filter, queryClient, restore, toast],
  );
}

interface UndoableAction extends ConfirmOptions {
  /** The success toast, whose Restore puts back the snapshot that `taken` picks out. */
  done: string;
  taken: (snapshot: Snapshot) => boolean;
  /** The failure toast, before the server's reason. */
  failed: string;
}

/**
 * A destructive action that Guardian keeps a copy of: asked for in the confirm dialog, then told in a
 * toast with Restore, or its failure in an error toast. `filter` is the page's own snapshot list.
 */
export function useUndoableAction(filter: SnapshotFilter) {
  const confirm = useConfirm();
  const toast = useToast();
  const undoableSuccess = useUndoableSuccess(filter);
  return ({ done, taken, failed, ...options }: UndoableAction) =>
    confirm(options).then(
      (confirmed) => confirmed && undoableSuccess(done, taken),
      (error: unknown) => toast.error(actionErrorMessage(error, failed)),
    );
}

/**
 * What Clean All or a delete removed on this page and can still be put back, newest first, each with
 * Restore. Shown only when there is something; the server forgets a snapshot when it expires.
 */
export function RecentlyRemoved({ filter, title }: { filter: SnapshotFilter; title: string }) {
  const snapshots = useSnapshotsQuery(filter);
  const restore = useRestore();
  const shown = snapshots.data ?? [];
  if (shown.length === 0) return null;

  return (
    <section
      aria-labelledby="recently-removed-title"
      className="mt-8 rounded-card border border-line bg-surface p-4 shadow-xs"
    >
      <h2 id="recently-removed-title" className="flex items-center gap-2 text-sm font-semibold text-ink">
        <History aria-hidden="true" className="size-4 text-ink-muted" />
        {title}
      </h2>
      <ul className="mt-3 divide-y divide-line">
        {shown.map((snapshot) => (
          <li key={snapshot.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2.5">
            <div className="min-w-0 flex-1">
              <p className="break-words text-sm font-medium text-ink">{snapshot.summary}</p>
              <p className="text-xs text-ink-muted">
                Removed {dateTime.format(new Date(snapshot.created_at))}
                {snapshot.restored_at
                  ? ''
                  : ` · can be restored until ${dateTime.format(new Date(snapshot.expires_at))}`}
              </p>
            </div>
            {snapshot.restored_at ? (
              <Badge tone="green">Restored</Badge>
            ) : (
              <Button
                variant="secondary"
                size="sm"
                icon={<RotateCcw aria-hidden="true" className="size-4" />}
                loading={restore.restoring?.id === snapshot.id}
                disabled={restore.restoring !== undefined}
                onClick={() => restore.run(snapshot)}
                aria-label={`Restore ${snapshot.summary}`}
              >
                {restore.restoring?.id === snapshot.id ? 'Restoring...' : 'Restore'}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
