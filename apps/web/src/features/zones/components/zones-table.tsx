import { Link } from 'react-router';
import { Settings } from 'lucide-react';
import type { Zone } from '@guardian/contract';
import { Button, DeleteButton } from '../../../components/ui/button';
import {
  SortableHeaderCell,
  Table,
  TableActionsCell,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
  TableRows,
} from '../../../components/ui/table';
import type { SortState } from '../../../lib/use-sort';
import { ZoneStatus } from './zone-status';

export type ZoneSortKey = 'domain' | 'accountName' | 'status';

const COLUMN_COUNT = 9;
const linkClassName = 'font-medium text-brand hover:text-brand-hover hover:underline';

interface ZonesTableProps {
  rows: Zone[];
  /** The row number of the first row: the "No" column counts across pages. */
  firstRowNumber: number;
  loading: boolean;
  /** True while a search hides every zone, to say so instead of "no zones". */
  searching: boolean;
  sort: SortState<ZoneSortKey>;
  onSort: (column: ZoneSortKey) => void;
  onShowNameServers: (zone: Zone) => void;
  onOpenSettings: (zone: Zone) => void;
  onDelete: (zone: Zone) => void;
}

export function ZonesTable({
  rows,
  firstRowNumber,
  loading,
  searching,
  sort,
  onSort,
  onShowNameServers,
  onOpenSettings,
  onDelete,
}: ZonesTableProps) {
  return (
    <Table caption="Zones">
      <TableHead>
        <TableHeaderCell>No</TableHeaderCell>
        <SortableHeaderCell column="domain" sort={sort} onSort={onSort}>
          Domain
        </SortableHeaderCell>
        <SortableHeaderCell column="accountName" sort={sort} onSort={onSort}>
          Account Name
        </SortableHeaderCell>
        <SortableHeaderCell column="status" sort={sort} onSort={onSort}>
          Status
        </SortableHeaderCell>
        <TableHeaderCell>Unique Visitors</TableHeaderCell>
        <TableHeaderCell>DNS</TableHeaderCell>
        <TableHeaderCell>Rules</TableHeaderCell>
        <TableHeaderCell>Settings</TableHeaderCell>
        <TableHeaderCell>Delete</TableHeaderCell>
      </TableHead>
      <TableBody>
        <TableRows
          colSpan={COLUMN_COUNT}
          loading={loading}
          loadingText="Loading zones..."
          rows={rows}
          empty={searching ? 'No zones match your search.' : 'No zones found.'}
        >
          {(zone, index) => (
            <TableRow key={zone.id}>
              <TableCell label="No" className="text-ink-muted tabular-nums">
                {firstRowNumber + index}
              </TableCell>
              <TableCell label="Domain" className="font-medium whitespace-nowrap">
                {zone.domain}
              </TableCell>
              <TableCell label="Account Name" className="whitespace-nowrap">
                {zone.accountName}
              </TableCell>
              <TableCell label="Status">
                <ZoneStatus
                  domain={zone.domain}
                  status={zone.status}
                  onShowNameServers={() => onShowNameServers(zone)}
                />
              </TableCell>
              {/* Cloudflare's analytics are not part of this console (spec: always N/A). */}
              <TableCell label="Unique Visitors" className="text-ink-muted">
                N/A
              </TableCell>
              <TableActionsCell label="DNS">
                <Link
                  to={`/cloudflare/zones/${zone.id}/dns`}
                  className={linkClassName}
                  aria-label={`DNS records of ${zone.domain}`}
                >
                  DNS
                </Link>
              </TableActionsCell>
              <TableActionsCell label="Rules">
                <Link
                  to={`/cloudflare/zones/${zone.id}/rules`}
                  className={linkClassName}
                  aria-label={`Rules of ${zone.domain}`}
                >
                  Rules
                </Link>
              </TableActionsCell>
              <TableActionsCell label="Settings">
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Settings of ${zone.domain}`}
                  onClick={() => onOpenSettings(zone)}
                >
                  <Settings aria-hidden="true" className="size-4" />
                </Button>
              </TableActionsCell>
              <TableActionsCell label="Delete">
                <DeleteButton label={`Delete ${zone.domain}`} onClick={() => onDelete(zone)} />
              </TableActionsCell>
            </TableRow>
          )}
        </TableRows>
      </TableBody>
    </Table>
  );
}
