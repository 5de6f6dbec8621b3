import { useCallback, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, Plus, Upload } from 'lucide-react';
import {
  BAN_LIST_ITEM_SEARCH_MATCHES_MAX,
  BAN_LIST_ITEM_SEARCH_MAX,
  PAGE_SIZE,
  type BanListItem,
  type BanListItemSort,
  type BanListKind,
  type Job,
} from '@guardian/contract';
import { Button, buttonClassName, SyncButton } from '../../components/ui/button';
import { useConfirm, useConfirmedAction } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { PagedSearchInput } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { SearchSummary } from '../../components/ui/search-summary';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { usePagedSearch } from '../../lib/use-paged-search';
import { pageCountOf } from '../../lib/use-paged-rows';
import { nextSort, type SortState } from '../../lib/use-sort';
import { useDeleteBanListItemMutation } from '../../api/ban-list-items/ban-list-item-delete-mutation';
import { useBanListItemsCountQuery } from '../../api/ban-list-items/ban-list-items-count-query';
import { useBanListItemsQuery } from '../../api/ban-list-items/ban-list-items-query';
import { useBanListSync } from '../../api/ban-lists/ban-list-sync-mutation';
import { isJob } from '../../api/jobs/follow-job';
import { useBanListQuery } from '../../api/ban-lists/ban-lists-query';
import { AddBanListItemDialog } from './components/add-ban-list-item-dialog';
import { BanListItemDetailDialog } from './components/ban-list-item-detail-dialog';
import { ImportBanListItemsDialog } from './components/import-ban-list-items-dialog';
import { counted } from '../../lib/counted';
import { BanListItemsTable, valueColumnLabel } from './components/ban-list-items-table';
import { BanListPurposeField } from './components/ban-list-purpose-field';
import { BanListSyncProgress } from './components/ban-list-sync-progress';
import { ExportBanListItemsButton } from './components/export-ban-list-items-button';

const KIND_LABELS: Record<BanListKind, string> = {
  ip: 'IP',
  hostname: 'Hostname',
  asn: 'ASN',
  redirect: 'Redirect',
};

/** Spec section 9: newest first. */
const DEFAULT_SORT: SortState<BanListItemSort> = { key: 'id', direction: 'desc' };

const backToBanLists = (
  <Link to="/cloudflare/banlists" className={buttonClassName('secondary')}>
    <ArrowLeft aria-hidden="true" className="size-4" />
    Back to Ban Lists
  </Link>
);

/** Ban List Items of /cloudflare/banlists/:listId/items (spec section 2). */
export default function BanListItemsScreen() {
  const listId = useParams().listId ?? '';
  // Another list starts afresh: its own page, search and sort, and no rows of the previous list.
  return <BanListItemsView key={listId} listId={listId} />;
}

function BanListItemsView({ listId }: { listId: string }) {
  const banList = useBanListQuery(listId);
  const deleteItem = useDeleteBanListItemMutation(listId);
  const confirm = useConfirm();
  const confirmAction = useConfirmedAction();
  const toast = useToast();
  // A long sync runs as a job: the same words when it ends as a short sync's.
  const syncEnded = useCallback(
    (job: Job) => {
      if (job.state === 'succeeded') toast.success('List synced with Cloudflare.');
      else if (job.state === 'failed')
        toast.error(`Failed to sync items. Please try again.${job.error ? ` ${job.error}` : ''}`);
      else toast.success('Sync cancelled.');
    },
    [toast],
  );
  const syncBanList = useBanListSync(listId, syncEnded);
  const [adding, setAdding] = useState(false);
  // The item whose detail is open (its history and expiry).
  const [opened, setOpened] = useState<BanListItem | null>(null);
  const [importing, setImporting] = useState(false);

  // Spec section 9: a new search starts at page 1 once the debounce settles (clearing it too).
  const search = usePagedSearch();
  const { page, setPage, searching } = search;
  const [sort, setSort] = useState(DEFAULT_SORT);
  // A page is 100 rows long: the next one is read from its top, where the search box is.
  const listTop = useRef<HTMLDivElement>(null);
  const changePage = (next: number) => {
    setPage(next);
    listTop.current?.scrollIntoView?.({ block: 'nearest' }); // optional: jsdom has none
  };
  const changeSort = (column: BanListItemSort) => {
    setSort((current) => nextSort(current, column));
    setPage(1);
  };

  const items = useBanListItemsQuery(listId, {
    search: search.debounced,
    page,
    sort: sort.key,
    order: sort.direction,
  });
  const rows = items.data?.items ?? [];
  // A broad search's page counts only a few pages ahead; its exact count follows in a call of its own.
  const pageCapped = items.data?.totalItemsCapped ?? false;
  const count = useBanListItemsCountQuery(
    listId,
    search.debounced,
    searching && pageCapped && !items.isPlaceholderData,
  );
  const exactTotal = pageCapped ? count.data?.totalItems : undefined;
  const totalItems = exactTotal ?? items.data?.totalItems ?? 0;
  // A search pages through its first matches only (the server refuses the pages past them).
  const pagedItems = searching ? Math.min(totalItems, BAN_LIST_ITEM_SEARCH_MATCHES_MAX) : totalItems;
  const pageCount = pageCountOf(pagedItems, PAGE_SIZE.banListItems);
  const firstRowNumber = (page - 1) * PAGE_SIZE.banListItems + 1;
  search.keepPageWithin(items, pageCount);

  const sync = () => {
    let startedJob = false;
    return confirm({
      title: 'Update from Cloudflare',
      message:
        'Are you sure you want to sync this list with Cloudflare? This will fetch all items and update the database.',
      confirmLabel: 'Sync',
      busyLabel: 'Syncing...',
      variant: 'primary',
      action: async () => {
        startedJob = isJob(await syncBanList.start());
      },
    }).then(
      (synced) => synced && !startedJob && toast.success('List synced with Cloudflare.'),
      (error: unknown) => toast.error(actionErrorMessage(error, 'Failed to sync items. Please try again.')),
    );
  };

  const remove = (item: BanListItem) =>
    confirmAction({
      title: 'Delete Item',
      message:
        'Are you sure you want to delete this item? This will remove it from Cloudflare and the local database.',
      action: () => deleteItem.mutateAsync(item.id),
      done: `${item.ip} deleted.`,
      failed: 'Failed to delete item. Please try again.',
    });

  const title = banList.data?.list_name ?? 'Ban List Items';
  const description = banList.data
    ? `${KIND_LABELS[banList.data.kind]} list of ${banList.data.account_name} · List ID: ${listId}`
    : `List ID: ${listId}`;

  if (items.isError) {
    return (
      <>
        <PageHeader title={title} description={description} actions={backToBanLists} />
        <ErrorMessage onRetry={() => void items.refetch()}>
          Failed to fetch items for list {listId}.
        </ErrorMessage>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={<span className="break-words">{title}</span>}
        documentTitle={title}
        description={<span className="break-words">{description}</span>}
        actions={
          <>
            {backToBanLists}
            <SyncButton
              label="Update from Cloudflare"
              syncing={syncBanList.job !== null}
              busy={syncBanList.isPending || syncBanList.job !== null}
              onClick={() => void sync()}
            />
            <ExportBanListItemsButton
              listId={listId}
              listName={banList.data?.list_name}
              search={search.debounced}
            />
            <Button
              variant="secondary"
              icon={<Upload aria-hidden="true" className="size-4" />}
              onClick={() => setImporting(true)}
            >
              Import
            </Button>
            <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setAdding(true)}>
              Add
            </Button>
          </>
        }
      />
      {banList.data && <BanListPurposeField banList={banList.data} />}
      {syncBanList.job && syncBanList.progress && (
        <BanListSyncProgress
          job={syncBanList.job}
          progress={syncBanList.progress}
          cancelling={syncBanList.isCancelling}
          onCancel={() =>
            void syncBanList
              .cancel()
              .catch((error: unknown) =>
                toast.error(actionErrorMessage(error, 'Failed to cancel the sync. Please try again.')),
              )
          }
        />
      )}
      <div
        ref={listTop}
        className="mb-4 flex scroll-mt-20 flex-wrap items-center justify-between gap-x-4 gap-y-2"
      >
        <PagedSearchInput
          search={search}
          aria-label="Search items"
          placeholder="Search IP or Comment..."
          maxLength={BAN_LIST_ITEM_SEARCH_MAX}
        />
        <ItemsSummary
          loading={items.isPending}
          fetching={search.isFetching(items)}
          totalItems={totalItems}
          capped={pageCapped && exactTotal === undefined}
          searching={searching}
        />
      </div>
      <BanListItemsTable
        rows={rows}
        kind={banList.data?.kind}
        firstRowNumber={firstRowNumber}
        loading={items.isPending}
        searching={searching}
        sort={sort}
        onSort={changeSort}
        onDelete={(item) => void remove(item)}
        onOpen={setOpened}
      />
      <Pagination className="mt-4" page={page} pageCount={pageCount} onPageChange={changePage} />

      {importing && (
        <ImportBanListItemsDialog
          listId={listId}
          kind={banList.data?.kind}
          onClose={() => setImporting(false)}
          onImported={(result) => {
            setImporting(false);
            // A write whose answer was lost says what Guardian found at Cloudflare.
            toast.success(
              `${counted(result.added, 'item')} imported.${result.outcome ? ` ${result.outcome}` : ''}`,
            );
          }}
        />
      )}
      {opened && (
        <BanListItemDetailDialog
          listId={listId}
          item={opened}
          valueLabel={valueColumnLabel(banList.data?.kind)}
          onClose={() => setOpened(null)}
          onChanged={(item) => {
            setOpened(null);
            toast.success(`The expiry of ${item.ip} was changed.`);
          }}
        />
      )}
      {adding && (
        <AddBanListItemDialog
          listId={listId}
          kind={banList.data?.kind}
          onClose={() => setAdding(false)}
          onAdded={(item) => {
            setAdding(false);
            toast.success(`${item.ip} added.`);
          }}
        />
      )}
    </>
  );
}

interface ItemsSummaryProps {
  loading: boolean;
  /** A search or another page is on its way: the rows shown are the previous ones. */
  fetching: boolean;
  totalItems: number;
  /** The page's count stopped short and the exact one is not known (yet): more pages follow the last one shown. */
  capped: boolean;
  searching: boolean;
}

/** How many items (or matches) the list holds, and a spinner while the next rows load. */
function ItemsSummary({ loading, fetching, totalItems, capped, searching }: ItemsSummaryProps) {
  if (loading) return null;
  const count = `${capped ? 'More than ' : ''}${totalItems.toLocaleString()}`;
  const noun = searching
    ? totalItems === 1 && !capped
      ? 'match'
      : 'matches'
    : totalItems === 1
      ? 'item'
      : 'items';
  const shown =
    searching && !capped && totalItems > BAN_LIST_ITEM_SEARCH_MATCHES_MAX
      ? ` (the first ${BAN_LIST_ITEM_SEARCH_MATCHES_MAX.toLocaleString()} shown)`
      : '';
  return (
    <SearchSummary fetching={fetching}>
      {count} {noun}
      {shown}
    </SearchSummary>
  );
}
