import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, Plus, RefreshCw } from 'lucide-react';
import type { DnsRecord } from '@guardian/contract';
import { Button, buttonClassName } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageHeader } from '../../components/ui/page-header';
import { RecentlyRemoved, useRestoreNote, useUndoableAction } from '../../components/recently-removed';
import { actionErrorMessage } from '../../lib/api';
import { useDeleteDnsRecordMutation } from '../../api/dns-records/dns-record-delete-mutation';
import { useZoneDomain } from '../../api/zones/zone-domain';
import { useDnsRecordsQuery } from '../../api/dns-records/dns-records-query';
import { DnsRecordDialog } from './components/dns-record-dialog';
import type { EditableDnsRecord } from './components/dns-record-form';
import { DnsRecordsTable } from './components/dns-records-table';

/** The dialog's state: closed, adding, or editing one record. */
type Editing = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; record: EditableDnsRecord };

const backToZones = (
  <Link to="/cloudflare/zones" className={buttonClassName('secondary')}>
    <ArrowLeft aria-hidden="true" className="size-4" />
    Back to Zones
  </Link>
);

/** DNS Records of /cloudflare/zones/:zoneId/dns, read live from Cloudflare (spec section 2). */
export default function DnsRecordsScreen() {
  const zoneId = useParams().zoneId ?? '';
  const records = useDnsRecordsQuery(zoneId);
  const deleteRecord = useDeleteDnsRecordMutation(zoneId);
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' });
  const snapshotFilter = useMemo(() => ({ zoneId }), [zoneId]);
  const undoable = useUndoableAction(snapshotFilter);
  const restoreNote = useRestoreNote('dns-record');

  const remove = (record: DnsRecord) =>
    undoable({
      title: 'Delete DNS Record',
      message: `Are you sure you want to delete this DNS record? This action cannot be undone. ${restoreNote}`,
      action: () => deleteRecord.mutateAsync(record.id),
      done: `DNS record ${record.name} deleted.`,
      taken: (snapshot) => snapshot.record_id === record.id,
      failed: 'Failed to delete DNS record.',
    });

  const domain = useZoneDomain(zoneId);
  const description = domain ? `Zone ID: ${zoneId} · ${domain}` : `Zone ID: ${zoneId}`;
  if (records.isError) {
    return (
      <>
        <PageHeader title="DNS Records" description={description} actions={backToZones} />
        <ErrorMessage onRetry={() => void records.refetch()}>
          {actionErrorMessage(records.error, 'Failed to fetch DNS records.')}
        </ErrorMessage>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="DNS Records"
        description={description}
        actions={
          <>
            {backToZones}
            <Button
              variant="secondary"
              icon={<RefreshCw aria-hidden="true" className="size-4" />}
              loading={records.isFetching}
              onClick={() => void records.refetch()}
            >
              Refresh
            </Button>
            <Button
              icon={<Plus aria-hidden="true" className="size-4" />}
              onClick={() => setEditing({ mode: 'add' })}
            >
              Add Record
            </Button>
          </>
        }
      />
      <DnsRecordsTable
        records={records.data ?? []}
        loading={records.isPending}
        onEdit={(record) => setEditing({ mode: 'edit', record })}
        onDelete={remove}
      />
      <RecentlyRemoved filter={snapshotFilter} title="Recently deleted records" />
      {editing.mode !== 'closed' && (
        <DnsRecordDialog
          zoneId={zoneId}
          record={editing.mode === 'edit' ? editing.record : undefined}
          onClose={() => setEditing({ mode: 'closed' })}
        />
      )}
    </>
  );
}
