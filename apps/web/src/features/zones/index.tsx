import { useMemo, useRef, useState } from 'react';
import { Plus } from 'lucide-react';
import { PAGE_SIZE, type Zone } from '@guardian/contract';
import { RunningJobStrip } from '../../components/job-progress-strip';
import { Button, SyncButton } from '../../components/ui/button';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { SearchInput } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { usePagedRows } from '../../lib/use-paged-rows';
import { useSort, type SortState } from '../../lib/use-sort';
import { useDeleteZoneMutation } from '../../api/zones/zone-delete-mutation';
import { useSyncZonesMutation } from '../../api/zones/zones-sync-mutation';
import { useZonesQuery } from '../../api/zones/zones-query';
import { AddZoneDialog } from './components/add-zone-dialog';
import { NameServersDialog, type NameServersView } from './components/name-servers-dialog';
import { ZoneSettingsDialog } from './components/zone-settings-dialog';
import { ZonesTable, type ZoneSortKey } from './components/zones-table';

const DEFAULT_SORT: SortState<ZoneSortKey> = { key: 'domain', direction: 'asc' };
const NO_ZONES: Zone[] = [];

function matchesSearch(zone: Zone, needle: string): boolean {
  return zone.domain.toLowerCase().includes(needle) || zone.accountName.toLowerCase().includes(needle);
}

/** Zones (/cloudflare/zones): the zones of every account, from the server's mirror (spec section 2). */
export default function ZonesScreen() {
  const zones = useZonesQuery();
  const syncZones = useSyncZonesMutation();
  const deleteZone = useDeleteZoneMutation();
  const confirm = useConfirm();
  const toast = useToast();

  const [search, setSearch] = useState('');
  const pageBeforeSearch = useRef(1);
  const [adding, setAdding] = useState(false);
  const [nameServers, setNameServers] = useState<NameServersView | null>(null);
  const [settingsOf, setSettingsOf] = useState<Zone | null>(null);

  const needle = search.trim().toLowerCase();
  const allZones = zones.data ?? NO_ZONES;
  const found = useMemo(
    () => (needle ? allZones.filter((zone) => matchesSearch(zone, needle)) : allZones),
    [allZones, needle],
  );
  const { sorted, sort, toggleSort } = useSort<Zone, ZoneSortKey>(found, DEFAULT_SORT);
  const { pageRows, page, pageCount, setPage, firstRowNumber } = usePagedRows(sorted, PAGE_SIZE.zones);

  // Spec section 9: entering text jumps to page 1; clearing it restores the page the person was on.
  const changeSearch = (next: string) => {
    const wasSearching = search.trim() !== '';
    const searching = next.trim() !== '';
    if (searching && !wasSearching) pageBeforeSearch.current = page;
    if (searching) setPage(1);
    else if (wasSearching) setPage(pageBeforeSearch.current);
    setSearch(next);
  };

  const sync = () =>
    syncZones.mutate(undefined, {
      onSuccess: () => toast.success('Zones updated.'),
      onError: (error) => toast.error(actionErrorMessage(error, 'Failed to sync zones.')),
    });

  const remove = (zone: Zone) =>
    confirm({
      title: 'Delete Zone',
      message: `Are you sure you want to permanently delete the zone ${zone.domain}? This action cannot be undone.`,
      confirmLabel: 'Delete',
      busyLabel: 'Deleting...',
      action: () => deleteZone.mutateAsync(zone.id),
    }).then(
      (deleted) => deleted && toast.success(`Zone ${zone.domain} deleted.`),
      (error: unknown) => toast.error(actionErrorMessage(error, 'Failed to delete zone.')),
    );

  if (zones.isError) {
    return (
      <>
        <PageHeader title="Zones" />
        <ErrorMessage onRetry={() => void zones.refetch()}>Failed to fetch zones.</ErrorMessage>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Zones"
        description="The domains of your Cloudflare accounts."
        actions={
          <>
            <SyncButton label="Update List" syncing={syncZones.isPending} onClick={sync} />
            <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setAdding(true)}>
              Add Zone
            </Button>
          </>
        }
      />
      <RunningJobStrip
        kind="zones-sync"
        label="Update List"
        title="Updating zones..."
        progressLabel="Update List progress"
        unit="pages"
        cancelLabel="Cancel update"
        onCancelFailed={(error) =>
          toast.error(actionErrorMessage(error, 'Failed to cancel. Please try again.'))
        }
      />
      <div className="mb-4 max-w-sm">
        <SearchInput
          aria-label="Search zones"
          placeholder="Search Domain or Account..."
          value={search}
          onSearch={changeSearch}
        />
      </div>
      <ZonesTable
        rows={pageRows}
        firstRowNumber={firstRowNumber}
        loading={zones.isPending}
        searching={needle !== ''}
        sort={sort}
        onSort={toggleSort}
        onShowNameServers={(zone) =>
          setNameServers({ domain: zone.domain, nameServers: zone.name_servers, justAdded: false })
        }
        onOpenSettings={setSettingsOf}
        onDelete={remove}
      />
      <Pagination className="mt-4" page={page} pageCount={pageCount} onPageChange={setPage} />

      {adding && (
        <AddZoneDialog
          onClose={() => setAdding(false)}
          onAdded={(zone) => {
            setAdding(false);
            setNameServers({ domain: zone.name, nameServers: zone.name_servers, justAdded: true });
          }}
        />
      )}
      <NameServersDialog view={nameServers} onClose={() => setNameServers(null)} />
      {settingsOf && (
        <ZoneSettingsDialog
          zoneId={settingsOf.id}
          domain={settingsOf.domain}
          onClose={() => setSettingsOf(null)}
        />
      )}
    </>
  );
}
