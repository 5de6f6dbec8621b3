import { Pencil } from 'lucide-react';
import type { CloudflareAccount } from '@guardian/contract';
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
import { TokenState } from './token-state';

export type AccountSortKey = 'id' | 'account_name' | 'account_id';

const COLUMN_COUNT = 5;

interface AccountsTableProps {
  rows: CloudflareAccount[];
  /** The row number of the first row: the "No" column counts across pages. */
  firstRowNumber: number;
  loading: boolean;
  /** True while a search hides every account, to say so instead of "no accounts". */
  searching: boolean;
  sort: SortState<AccountSortKey>;
  onSort: (column: AccountSortKey) => void;
  onEdit: (account: CloudflareAccount) => void;
  onDelete: (account: CloudflareAccount) => void;
}

export function AccountsTable({
  rows,
  firstRowNumber,
  loading,
  searching,
  sort,
  onSort,
  onEdit,
  onDelete,
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
                {/* A 32-digit id wraps on a phone's card instead of running out of it. */}
                <span className="min-w-0 cards:break-all">{account.account_id}</span>
              </TableCell>
              {/* Masked by the server: the full token never reaches the browser. */}
              <TableCell label="Token" className="font-mono text-xs">
                <div className="flex flex-col gap-1">
                  <span className="whitespace-nowrap">{account.token}</span>
                  <TokenState account={account} />
                </div>
              </TableCell>
              <TableActionsCell label="Settings" className="[&>div]:gap-1">
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Edit ${account.account_name}`}
                  onClick={() => onEdit(account)}
                >
                  <Pencil aria-hidden="true" className="size-4" />
                </Button>
                <DeleteButton label={`Delete ${account.account_name}`} onClick={() => onDelete(account)} />
              </TableActionsCell>
            </TableRow>
          )}
        </TableRows>
      </TableBody>
    </Table>
  );
}
