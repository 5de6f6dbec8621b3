import { Pencil } from 'lucide-react';
import type { CloudflareAccount } from '@guardian/contract';
import { Button, DeleteButton } from '../../../components/ui/button';
import { TableActionsCell, TableCell } from '../../../components/ui/table';
import { PagedDataTable, type PagedTableProps } from '../../../components/ui/paged-table';
import { TokenState } from './token-state';

export type AccountSortKey = 'id' | 'account_name' | 'account_id';

interface AccountsTableProps extends PagedTableProps<CloudflareAccount, AccountSortKey> {
  /** True while a search hides every account, to say so instead of "no accounts". */
  searching: boolean;
  onEdit: (account: CloudflareAccount) => void;
  onDelete: (account: CloudflareAccount) => void;
}

export function AccountsTable({ searching, onEdit, onDelete, ...table }: AccountsTableProps) {
  return (
    <PagedDataTable
      caption="Cloudflare accounts"
      table={table}
      // "No" follows the accounts' order of addition, so it sorts by id.
      numberSort="id"
      columns={(header) => [
        header('account_name', 'Account Name'),
        header('account_id', 'Account ID'),
        'Token',
        'Settings',
      ]}
      loadingText="Loading accounts..."
      empty={searching ? 'No accounts match your search.' : 'No accounts yet. Add one to get started.'}
    >
      {(account) => (
        <>
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
        </>
      )}
    </PagedDataTable>
  );
}
