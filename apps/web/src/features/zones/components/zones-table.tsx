import { Link } from 'react-router';
import { Settings } from 'lucide-react';
import type { Zone, ZoneSort } from '@guardian/contract';
import { Button, DeleteButton } from '../../../components/ui/button';
import { TableActionsCell, TableCell } from '../../../components/ui/table';
import { PagedDataTable, type PagedTableProps } from '../../../components/ui/paged-table';
import { ZoneStatus } from './zone-status';

const linkClassName = 'font-medium text-brand hover:text-brand-hover hover:underline';

interface ZonesTableProps extends PagedTableProps<Zone, ZoneSort> {
  /** True while a search hides every zone, to say so instead of "no zones". */
  searching: boolean;
  onShowNameServers: (zone: Zone) => void;
  onOpenSettings: (zone: Zone) => void;
  onDelete: (zone: Zone) => void;
}

export function ZonesTable({
  searching,
  onShowNameServers,
  onOpenSettings,
  onDelete,
  ...table
}: ZonesTableProps) {
  return (
    <PagedDataTable
      caption="Zones"
      table={table}
      columns={(header) => [
        header('domain', 'Domain'),
        header('accountName', 'Account Name'),
        header('status', 'Status'),
        'Unique Visitors',
        'DNS',
        'Rules',
        'Settings',
        'Delete',
      ]}
      loadingText="Loading zones..."
      empty={searching ? 'No zones match your search.' : 'No zones found.'}
    >
      {(zone) => (
        <>
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
        </>
      )}
    </PagedDataTable>
  );
}
