import { useState } from 'react';
import { Eraser, Plus } from 'lucide-react';
import { PAGE_SIZE, type BanList } from '@guardian/contract';
import { Button, SyncButton } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageHeader } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { useToast } from '../../components/ui/toast';
import { RunningJobStrip } from '../../components/job-progress-strip';
import { RecentlyRemoved, useRestoreNote, useUndoableAction } from '../../components/recently-removed';
import type { SnapshotFilter } from '../../api/snapshots/keys';
import { actionErrorMessage } from '../../lib/api';
import { usePagedRows } from '../../lib/use-paged-rows';
import { useSort, type SortState } from '../../lib/use-sort';
import { useDeleteBanListMutation } from '../../api/ban-lists/ban-list-delete-mutation';
import { useCleanBanListsMutation } from '../../api/ban-lists/ban-lists-clean-mutation';
import { useBanListsFollowSyncs } from '../../api/ban-lists/ban-lists-follow-syncs';
import { useBanListsQuery } from '../../api/ban-lists/ban-lists-query';
import { useUpdateBanListsMutation } from '../../api/ban-lists/ban-lists-update-mutation';
import { AddBanListDialog } from './components/add-ban-list-dialog';
import { BanListsTable, type BanListSortKey } from './components/ban-lists-table';
import { ListCapacity } from './components/list-capacity';

const DEFAULT_SORT: SortState<BanListSortKey> = { key: 'id', direction: 'asc' };
const NO_BAN_LISTS: BanList[] = [];
/** What this page can put back: Clean All's lists, and deleted lists. */
const BAN_LIST_SNAPSHOTS: SnapshotFilter = { kinds: ['clean-all', 'ban-list'] };

/** Ban Lists (/cloudflare/banlists): the Cloudflare lists of every account (spec section 2). */
export default function BanListsScreen() {
  const banLists = useBanListsQuery();
  // A new account's lists fill in as their sync jobs end.
  useBanListsFollowSyncs();
  const updateBanLists = useUpdateBanListsMutation();
  const cleanBanLists = useCleanBanListsMutation();
  const deleteBanList = useDeleteBanListMutation();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const undoable = useUndoableAction(BAN_LIST_SNAPSHOTS);
  // Said after the spec's words, which stay as they are.
  const cleanAllNote = useRestoreNote('clean-all');
  const deleteNote = useRestoreNote('ban-list');

  const { sorted, sort, toggleSort } = useSort<BanList, BanListSortKey>(
    banLists.data ?? NO_BAN_LISTS,
    DEFAULT_SORT,
  );
  const { pageRows, page, pageCount, setPage, firstRowNumber } = usePagedRows(sorted, PAGE_SIZE.banLists);

  // The spec's messages on failure, then the server's reason (which account, what Cloudflare said).
  const update = () =>
    updateBanLists.mutate(undefined, {
      onSuccess: () => toast.success('Ban lists updated.'),
      onError: (error) =>
        toast.error(actionErrorMessage(error, 'Failed to update ban lists. Please try again.')),
    });

  const cancelFailed = (error: unknown) =>
    toast.error(actionErrorMessage(error, 'Failed to cancel. Please try again.'));

  const cleanAll = () =>
    undoable({
      title: 'Clean All Ban Lists',
      message: `Are you sure you want to clean all items from all ban lists? This action is irreversible. ${cleanAllNote}`,
      confirmLabel: 'Clean All',
      busyLabel: 'Deleting...',
      action: () => cleanBanLists.mutateAsync(),
      done: 'All ban lists cleaned.',
      taken: (snapshot) => snapshot.kind === 'clean-all',
      failed: 'Failed to clean all ban lists. Please try again.',
    });

  const remove = (banList: BanList) =>
    undoable({
      title: 'Delete Ban List',
      message: `Are you sure you want to delete this ban list? This action cannot be undone. ${deleteNote}`,
      action: () => deleteBanList.mutateAsync(banList),
      done: `Ban list ${banList.list_name} deleted.`,
      taken: (snapshot) => snapshot.list_id === banList.list_id,
      failed: 'Failed to delete ban list. Please try again.',
    });

  if (banLists.isError) {
    return (
      <>
        <PageHeader title="Ban Lists" />
        <ErrorMessage onRetry={() => void banLists.refetch()}>Failed to fetch ban lists.</ErrorMessage>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Ban Lists"
        description="The IP, hostname, ASN and redirect lists of your Cloudflare accounts."
        actions={
          <>
            <Button
              variant="secondary"
              className="hover:border-danger/40 hover:bg-danger-soft hover:text-danger"
              icon={<Eraser aria-hidden="true" className="size-4" />}
              onClick={() => void cleanAll()}
            >
              Clean All
            </Button>
            <SyncButton label="Update" syncing={updateBanLists.isPending} onClick={update} />
            <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setAdding(true)}>
              Add
            </Button>
          </>
        }
      />
      <RunningJobStrip
        kind="ban-lists-update"
        label="Update from Cloudflare"
        title="Updating ban lists..."
        progressLabel="Update progress"
        unit="accounts"
        cancelLabel="Cancel update"
        onCancelFailed={cancelFailed}
      />
      <RunningJobStrip
        kind="ban-lists-clean"
        label="Clean All"
        title="Cleaning all ban lists..."
        progressLabel="Clean All progress"
        unit="lists"
        cancelLabel="Stop cleaning"
        onCancelFailed={cancelFailed}
      />
      <BanListsTable
        rows={pageRows}
        firstRowNumber={firstRowNumber}
        loading={banLists.isPending}
        sort={sort}
        onSort={toggleSort}
        onDelete={(banList) => void remove(banList)}
      />
      <Pagination className="mt-4" page={page} pageCount={pageCount} onPageChange={setPage} />
      <ListCapacity />
      <RecentlyRemoved filter={BAN_LIST_SNAPSHOTS} title="Recently removed" />

      {adding && (
        <AddBanListDialog
          onClose={() => setAdding(false)}
          onAdded={(banList) => {
            setAdding(false);
            toast.success(`Ban list ${banList.list_name} added.`);
          }}
        />
      )}
    </>
  );
}
