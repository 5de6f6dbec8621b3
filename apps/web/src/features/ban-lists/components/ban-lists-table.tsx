import { Link } from 'react-router';
import type { BanList } from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { DeleteButton } from '../../../components/ui/button';
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
import { counted } from '../../../lib/counted';

export type BanListSortKey =
  'id' | 'account_name' | 'account_id' | 'list_name' | 'list_id' | 'kind' | 'items';

const COLUMN_COUNT = 8;
// Cloudflare's 32-character ids wrap in two lines, so all eight columns fit a laptop screen.
const idClassName = 'block max-w-[16ch] break-all';
const linkClassName = 'font-medium text-brand tabular-nums hover:text-brand-hover hover:underline';

interface BanListsTableProps {
  rows: BanList[];
  /** The row number of the first row: the "No" column counts across pages. */
  firstRowNumber: number;
  loading: boolean;
  sort: SortState<BanListSortKey>;
  onSort: (column: BanListSortKey) => void;
  onDelete: (banList: BanList) => void;
}

export function BanListsTable({ rows, firstRowNumber, loading, sort, onSort, onDelete }: BanListsTableProps) {
  const header = (column: BanListSortKey, label: string) => (
    <SortableHeaderCell column={column} sort={sort} onSort={onSort}>
      {label}
    </SortableHeaderCell>
  );
  return (
    <Table caption="Ban lists">
      <TableHead>
        {/* "No" follows the lists' order of addition, so it sorts by id. */}
        {header('id', 'No')}
        {header('account_name', 'Account Name')}
        {header('account_id', 'Account ID')}
        {header('list_name', 'List Name')}
        {header('list_id', 'Ban List ID')}
        {header('kind', 'Kind')}
        {header('items', 'Items')}
        <TableHeaderCell>Settings</TableHeaderCell>
      </TableHead>
      <TableBody>
        <TableRows
          colSpan={COLUMN_COUNT}
          loading={loading}
          loadingText="Loading ban lists..."
          rows={rows}
          empty="No ban lists found. Add one, or press Update to read your accounts’ lists from Cloudflare."
        >
          {(banList, index) => (
            <TableRow key={banList.id}>
              <TableCell label="No" className="text-ink-muted tabular-nums">
                {firstRowNumber + index}
              </TableCell>
              <TableCell label="Account Name" className="whitespace-nowrap">
                {banList.account_name}
              </TableCell>
              <TableCell label="Account ID" className="font-mono text-xs whitespace-nowrap">
                <span className={idClassName}>{banList.account_id}</span>
              </TableCell>
              <TableCell label="List Name" className="font-medium whitespace-nowrap">
                {banList.list_name}
              </TableCell>
              <TableCell label="Ban List ID" className="font-mono text-xs whitespace-nowrap">
                <span className={idClassName}>{banList.list_id}</span>
              </TableCell>
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
            </TableRow>
          )}
        </TableRows>
      </TableBody>
    </Table>
  );
}
