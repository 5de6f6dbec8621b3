import { Pencil } from 'lucide-react';
import type { DnsRecord } from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { Button, DeleteButton } from '../../../components/ui/button';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../../components/ui/table';
import { Tooltip } from '../../../components/ui/tooltip';
import { editableRecord, ttlLabel, type EditableDnsRecord } from './dns-record-form';

/** Long TXT values are cut in the table; the tooltip holds the whole text. */
const CONTENT_DISPLAY_LENGTH = 60;

interface DnsRecordsTableProps {
  records: DnsRecord[];
  loading: boolean;
  onEdit: (record: EditableDnsRecord) => void;
  onDelete: (record: DnsRecord) => void;
}

function RecordContent({ record }: { record: DnsRecord }) {
  const cut =
    record.content.length > CONTENT_DISPLAY_LENGTH
      ? `${record.content.slice(0, CONTENT_DISPLAY_LENGTH)}...`
      : record.content;
  return (
    <div className="space-y-0.5">
      {cut === record.content ? (
        <span className="font-mono text-xs wrap-anywhere">{record.content}</span>
      ) : (
        <Tooltip content={record.content}>
          <span tabIndex={0} className="font-mono text-xs wrap-anywhere">
            {cut}
          </span>
        </Tooltip>
      )}
      {record.priority !== null && <p className="text-xs text-ink-muted">Priority {record.priority}</p>}
    </div>
  );
}

export function DnsRecordsTable({ records, loading, onEdit, onDelete }: DnsRecordsTableProps) {
  return (
    <DataTable
      caption="DNS records"
      columns={['Type', 'Name', 'Content', 'TTL', 'Proxied', { label: 'Actions', className: 'text-right' }]}
      loading={loading}
      loadingText="Loading DNS records..."
      rows={records}
      empty="No DNS records found."
    >
      {(record) => {
        const editable = editableRecord(record);
        return (
          <TableRow key={record.id}>
            <TableCell label="Type" className="font-semibold">
              {record.type}
            </TableCell>
            <TableCell label="Name" className="min-w-56 wrap-anywhere">
              {record.name}
            </TableCell>
            <TableCell label="Content" className="min-w-56">
              <RecordContent record={record} />
            </TableCell>
            <TableCell label="TTL" className="whitespace-nowrap tabular-nums">
              {ttlLabel(record.ttl)}
            </TableCell>
            <TableCell label="Proxied">
              {record.proxied ? <Badge tone="blue">Proxied</Badge> : <Badge tone="grey">DNS only</Badge>}
            </TableCell>
            <TableActionsCell label="Actions" align="end" className="[&>div]:gap-1">
              {editable ? (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Edit ${record.type} record ${record.name}`}
                  onClick={() => onEdit(editable)}
                >
                  <Pencil aria-hidden="true" className="size-4" />
                </Button>
              ) : (
                <Button
                  variant="ghost"
                  size="icon"
                  disabled
                  aria-label={`${record.type} records cannot be edited here`}
                  title={`${record.type} records cannot be edited here`}
                >
                  <Pencil aria-hidden="true" className="size-4" />
                </Button>
              )}
              <DeleteButton
                label={`Delete ${record.type} record ${record.name}`}
                onClick={() => onDelete(record)}
              />
            </TableActionsCell>
          </TableRow>
        );
      }}
    </DataTable>
  );
}
