import { Pencil, Trash2 } from 'lucide-react';
import type { CloudflareAccount } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
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

export type AccountSortKey = 'id' | 'account_name' | 'account_id';

const COLUMN_COUNT = 5;
const NOT_AVAILABLE = 'Not available yet';

interface AccountsTableProps {
  rows: CloudflareAccount[];
  /** The row number of the first row: the "No" column counts across pages. */
  firstRowNumber: number;
  loading: boolean;
  /** True while a search hides every account, to say so instead of "no accounts". */
  searching: boolean;
  sort: SortState<AccountSortKey>;
  onSort: (column: AccountSortKey) => void;
}

export function AccountsTable({
  rows,
  firstRowNumber,
  loading,
  searching,
  sort,
  onSort,
}: AccountsTableProps) {
  return (
    <Table caption="Cloudflare accounts">
      <TableHead>
        {/* "No" follows the accounts' order of addition, so it sorts by id. */}
        <SortableHeaderCell column="id" sort={sort} onSort={onSort}>
          No
        </SortableHeaderCell>
        <SortableHeaderCell column="account_name" sort={sort} onSort={onSort}>
          Account Name
        </SortableHeaderCell>
        <SortableHeaderCell column="account_id" sort={sort} onSort={onSort}>
          Account ID
        </SortableHeaderCell>
        <TableHeaderCell>Token</TableHeaderCell>
        <TableHeaderCell>Settings</TableHeaderCell>
      </TableHead>
      <TableBody>
        <TableRows
          colSpan={COLUMN_COUNT}
          loading={loading}
          loadingText="Loading accounts..."
          rows={rows}
          empty={searching ? 'No accounts match your search.' : 'No accounts yet. Add one to get started.'}
        >
          {(account, index) => (
            <TableRow key={account.id}>
              <TableCell label="No" className="text-ink-muted tabular-nums">
                {firstRowNumber + index}
              </TableCell>
              <TableCell label="Account Name" className="font-medium whitespace-nowrap">
                {account.account_name}
              </TableCell>
              <TableCell label="Account ID" className="font-mono text-xs whitespace-nowrap">
                {account.account_id}
              </TableCell>
              {/* Masked by the server: the full token never reaches the browser. */}
              <TableCell label="Token" className="font-mono text-xs whitespace-nowrap">
                {account.token}
              </TableCell>
              <TableActionsCell label="Settings" className="[&>div]:gap-1">
                <NotAvailableButton label={`Edit ${account.account_name}`} icon={Pencil} />
                <NotAvailableButton label={`Delete ${account.account_name}`} icon={Trash2} />
              </TableActionsCell>
            </TableRow>
          )}
        </TableRows>
      </TableBody>
    </Table>
  );
}

/**
 * The spec's edit and delete icons, which do nothing yet: announced as unavailable (aria-disabled)
 * but still focusable, so keyboard and screen-reader users learn why.
 */
function NotAvailableButton({ label, icon: Icon }: { label: string; icon: typeof Pencil }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      aria-disabled="true"
      title={NOT_AVAILABLE}
      className="cursor-not-allowed opacity-55 hover:bg-transparent hover:text-ink-muted"
      onClick={(event) => event.preventDefault()}
    >
      <Icon aria-hidden="true" className="size-4" />
    </Button>
  );
}
