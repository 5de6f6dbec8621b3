import { useState } from 'react';
import { Plus } from 'lucide-react';
import { PAGE_SIZE, ZONE_SEARCH_MAX, type Zone, type ZoneSort } from '@guardian/contract';
import { RunningJobStrip } from '../../components/job-progress-strip';
import { Button, SyncButton } from '../../components/ui/button';
import { useConfirmedAction } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { PagedSearchInput } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { usePagedSearch } from '../../lib/use-paged-search';
import { pageCountOf } from '../../lib/use-paged-rows';
import { nextSort, type SortState } from '../../lib/use-sort';
import { useDeleteZoneMutation } from '../../api/zones/zone-delete-mutation';
import { useSyncZonesMutation } from '../../api/zones/zones-sync-mutation';
import { useZonesPageQuery } from '../../api/zones/zones-page-query';
import { AddZoneDialog } from './components/add-zone-dialog';
import { NameServersDialog, type NameServersView } from './components/name-servers-dialog';
import { ZoneSettingsDialog } from './components/zone-settings-dialog';
import { ZonesTable } from './components/zones-table';

/** Spec section 9: zones by domain ascending. */
const DEFAULT_SORT: SortState<ZoneSort> = { key: 'domain', direction: 'asc' };
const NO_ZONES: Zone[] = [];

/**
 * Zones (/cloudflare/zones): the zones of every account, from the server's mirror (spec section 2),
 * one page at a time: the server searches, sorts and pages them (GET /api/cloudflare/zones/page).
 */
export default function ZonesScreen() {
  const syncZones = useSyncZonesMutation();
  const deleteZone = useDeleteZoneMutation();
  const confirmedAction = useConfirmedAction();
  const toast = useToast();

  // Spec section 9: entering text jumps to page 1; clearing it restores the page the person was on.
  const search = usePagedSearch({ restorePageOnClear: true });
  const { page, setPage } = search;
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [adding, setAdding] = useState(false);
  const [nameServers, setNameServers] = useState<NameServersView | null>(null);
  const [settingsOf, setSettingsOf] = useState<Zone | null>(null);

  const zones = useZonesPageQuery({
    search: search.debounced,
    page,
    sort: sort.key,
    order: sort.direction,
  });
  const rows = zones.data?.zones ?? NO_ZONES;
  const pageCount = pageCountOf(zones.data?.totalZones ?? 0, PAGE_SIZE.zones);
  search.keepPageWithin(zones, pageCount);

  const sync = () =>
    syncZones.mutate(undefined, {
      onSuccess: () => toast.success('Zones updated.'),
      onError: (error) => toast.error(actionErrorMessage(error, 'Failed to sync zones.')),
    });

  const remove = (zone: Zone) =>
    confirmedAction({
      title: 'Delete Zone',
      message: `Are you sure you want to permanently delete the zone ${zone.domain}? This action cannot be undone.`,
      action: () => deleteZone.mutateAsync(zone.id),
      done: `Zone ${zone.domain} deleted.`,
      failed: 'Failed to delete zone.',
    });

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
      <div className="mb-4 flex items-center gap-3">
        <PagedSearchInput
          search={search}
          aria-label="Search zones"
          placeholder="Search Domain or Account..."
          maxLength={ZONE_SEARCH_MAX}
        />
        {/* The rows shown are the previous page's until the asked one arrives. */}
        {!zones.isPending && search.isFetching(zones) && (
          <Spinner size="sm" label="Loading zones..." className="text-brand" />
        )}
      </div>
      <ZonesTable
        rows={rows}
        firstRowNumber={(page - 1) * PAGE_SIZE.zones + 1}
        loading={zones.isPending}
        searching={search.searching}
        sort={sort}
        onSort={(column) => setSort((current) => nextSort(current, column))}
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
