import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { PAGE_SIZE, type CloudflareAccount } from '@guardian/contract';
import { Button } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { SearchInput } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { useConfirmedAction } from '../../components/ui/confirm-dialog';
import { useToast } from '../../components/ui/toast';
import { usePagedRows } from '../../lib/use-paged-rows';
import { useSort, type SortState } from '../../lib/use-sort';
import { useAccountsQuery } from '../../api/accounts/accounts-query';
import { useDeleteAccountMutation } from '../../api/accounts/account-delete-mutation';
import { AccountRemovalSummary } from './components/account-removal-summary';
import { AccountsTable, type AccountSortKey } from './components/accounts-table';
import { AddAccountDialog } from './components/add-account-dialog';
import { EditAccountDialog } from './components/edit-account-dialog';

const DEFAULT_SORT: SortState<AccountSortKey> = { key: 'id', direction: 'asc' };
const NO_ACCOUNTS: CloudflareAccount[] = [];

function matchesSearch(account: CloudflareAccount, needle: string): boolean {
  return (
    account.account_name.toLowerCase().includes(needle) || account.account_id.toLowerCase().includes(needle)
  );
}

/** Cloudflare Accounts (/cloudflare/accounts): the accounts whose API tokens the console uses (spec section 2). */
export default function AccountsScreen() {
  const accounts = useAccountsQuery();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<CloudflareAccount | null>(null);
  const confirmAction = useConfirmedAction();
  const deleteAccount = useDeleteAccountMutation();

  const needle = search.trim().toLowerCase();
  const allAccounts = accounts.data ?? NO_ACCOUNTS;
  const found = useMemo(
    () => (needle ? allAccounts.filter((account) => matchesSearch(account, needle)) : allAccounts),
    [allAccounts, needle],
  );
  const { sorted, sort, toggleSort } = useSort<CloudflareAccount, AccountSortKey>(found, DEFAULT_SORT);
  const { pageRows, page, pageCount, setPage, firstRowNumber } = usePagedRows(sorted, PAGE_SIZE.accounts);

  const remove = (account: CloudflareAccount) =>
    confirmAction({
      title: 'Delete Account',
      message: <AccountRemovalSummary account={account} />,
      action: () => deleteAccount.mutateAsync(account.id),
      done: `Account ${account.account_name} deleted.`,
      failed: 'Failed to delete account.',
    });

  if (accounts.isError) {
    return (
      <>
        <PageHeader title="Cloudflare Accounts" />
        <ErrorMessage onRetry={() => void accounts.refetch()}>Failed to fetch accounts.</ErrorMessage>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Cloudflare Accounts"
        description="The Cloudflare accounts whose API tokens this console uses."
        actions={
          <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setAdding(true)}>
            Add Account
          </Button>
        }
      />
      <div className="mb-4 max-w-sm">
        <SearchInput
          aria-label="Search accounts"
          placeholder="Search Account Name or ID..."
          value={search}
          onSearch={(text) => {
            setSearch(text);
            setPage(1);
          }}
        />
      </div>
      <AccountsTable
        rows={pageRows}
        firstRowNumber={firstRowNumber}
        loading={accounts.isPending}
        searching={needle !== ''}
        sort={sort}
        onSort={toggleSort}
        onEdit={setEditing}
        onDelete={(account) => void remove(account)}
      />
      <Pagination className="mt-4" page={page} pageCount={pageCount} onPageChange={setPage} />

      {adding && (
        <AddAccountDialog
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            toast.success('Account added.');
          }}
        />
      )}
      {editing && (
        <EditAccountDialog
          account={editing}
          onClose={() => setEditing(null)}
          onSaved={(account) => {
            setEditing(null);
            toast.success(`Account ${account.account_name} saved.`);
          }}
        />
      )}
    </>
  );
}
