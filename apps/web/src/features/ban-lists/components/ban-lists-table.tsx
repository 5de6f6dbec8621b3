import { Link } from 'react-router';
import type { BanList } from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { DeleteButton } from '../../../components/ui/button';
import { TableActionsCell, TableCell } from '../../../components/ui/table';
import { PagedDataTable, type PagedTableProps } from '../../../components/ui/paged-table';
import { counted } from '../../../lib/counted';

export type BanListSortKey =
  'id' | 'account_name' | 'account_id' | 'list_name' | 'list_id' | 'kind' | 'items';

/** A Cloudflare id: its 32 characters wrap in two lines, so all eight columns fit a laptop screen. */
function IdCell({ label, id }: { label: string; id: string }) {
  return (
    <TableCell label={label} className="font-mono text-xs whitespace-nowrap">
      <span className="block max-w-[16ch] break-all">{id}</span>
    </TableCell>
  );
}

const linkClassName = 'font-medium text-brand tabular-nums hover:text-brand-hover hover:underline';

interface BanListsTableProps extends PagedTableProps<BanList, BanListSortKey> {
  onDelete: (banList: BanList) => void;
}

export function BanListsTable({ onDelete, ...table }: BanListsTableProps) {
  return (
    <PagedDataTable
      caption="Ban lists"
      table={table}
      // "No" follows the lists' order of addition, so it sorts by id.
      numberSort="id"
      columns={(header) => [
        header('account_name', 'Account Name'),
        header('account_id', 'Account ID'),
        header('list_name', 'List Name'),
        header('list_id', 'Ban List ID'),
        header('kind', 'Kind'),
        header('items', 'Items'),
        'Settings',
      ]}
      loadingText="Loading ban lists..."
      empty="No ban lists found. Add one, or press Update to read your accounts’ lists from Cloudflare."
    >
      {(banList) => (
        <>
          <TableCell label="Account Name" className="whitespace-nowrap">
            {banList.account_name}
          </TableCell>
          <IdCell label="Account ID" id={banList.account_id} />
          <TableCell label="List Name" className="font-medium whitespace-nowrap">
            {banList.list_name}
          </TableCell>
          <IdCell label="Ban List ID" id={banList.list_id} />
          <TableCell label="Kind">
            <Badge tone="grey">{banList.kind}</Badge>
          </TableCell>
          <TableCell label="Items">
            <Link
              to={`/cloudflare/banlists/${encodeURIComponent(banList.list_id)}/items`}
              className={linkClassName}
              aria-label={`${counted(banList.items, 'item')} in ${banList.list_name}`}
            >
              {banList.items.toLocaleString()}
            </Link>
          </TableCell>
          <TableActionsCell label="Settings">
            <DeleteButton label={`Delete ${banList.list_name}`} onClick={() => onDelete(banList)} />
          </TableActionsCell>
        </>
      )}
    </PagedDataTable>
  );
}
