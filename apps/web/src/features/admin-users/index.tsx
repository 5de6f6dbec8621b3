import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { EMAIL_MAX_LENGTH, USERS_PAGE_SIZE, type User } from '@guardian/contract';
import { RequireTwoFactorSwitch } from '../../components/two-factor/require-two-factor-switch';
import { Button } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { PagedSearchInput } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { EmptyCard } from '../../components/ui/query-list';
import { Pagination } from '../../components/ui/pagination';
import { SearchSummary } from '../../components/ui/search-summary';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage, errorMessage } from '../../lib/api';
import { useSession } from '../../lib/session';
import { usePagedSearch } from '../../lib/use-paged-search';
import { pageCountOf } from '../../lib/use-paged-rows';
import { useDeleteUserMutation } from '../../api/users/user-delete-mutation';
import { useSetUserDisabledMutation } from '../../api/users/user-disabled-mutation';
import { useUsersQuery } from '../../api/users/users-query';
import { usePlansQuery } from '../../api/plans/plans-query';
import { PlanAssignDialog } from './components/plan-assign-dialog';
import { CreateUserDialog } from './components/create-user-dialog';
import { LevelDialog } from './components/level-dialog';
import { ResetPasswordDialog } from './components/reset-password-dialog';
import { UserActionDialog } from './components/user-action-dialog';
import { UserApiKeysDialog } from './components/user-api-keys-dialog';
import { UsersTable, type UserAction } from './components/users-table';
import { counted } from '../../lib/counted';

const TITLE = 'Users';
const DESCRIPTION = 'The people who can sign in to Guardian. Level 0 is an administrator.';

/** The admin menu's Users (/admin/users): administrators manage people. */
export default function AdminUsersScreen() {
  const session = useSession();
  if (!session.isAdmin) {
    // The server answers 403 to anyone else; the page says so without asking.
    return (
      <>
        <PageHeader title={TITLE} />
        <EmptyCard>Only administrators manage users.</EmptyCard>
      </>
    );
  }
  return <UsersView ownEmail={session.email ?? ''} />;
}

function UsersView({ ownEmail }: { ownEmail: string }) {
  const toast = useToast();
  const search = usePagedSearch();
  const { page, setPage, searching } = search;

  const users = useUsersQuery({ search: search.debounced, page });
  const plans = usePlansQuery();
  const planNames = useMemo(
    () => new Map((plans.data ?? []).map((plan) => [plan.id, plan.name])),
    [plans.data],
  );
  const totalItems = users.data?.totalItems ?? 0;
  const pageCount = pageCountOf(totalItems, USERS_PAGE_SIZE);
  search.keepPageWithin(users, pageCount);

  const [adding, setAdding] = useState(false);
  const [acting, setActing] = useState<{ action: UserAction; user: User } | null>(null);
  const setDisabled = useSetUserDisabledMutation();
  const deleteUser = useDeleteUserMutation();
  const close = () => {
    setActing(null);
    setDisabled.reset();
    deleteUser.reset();
  };
  const isSelf = (user: User) => user.email.toLowerCase() === ownEmail.toLowerCase();

  const onAction = (action: UserAction, user: User) => {
    setDisabled.reset();
    deleteUser.reset();
    if (action !== 'enable') return setActing({ action, user });
    // Enabling takes nothing away: no question first. A refusal is said above the table.
    setActing(null);
    setDisabled.mutate(
      { id: user.id, disabled: false },
      { onSuccess: (saved) => toast.success(`${saved.email} enabled.`) },
    );
  };

  if (users.isError) {
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <ErrorMessage onRetry={() => void users.refetch()}>
          {actionErrorMessage(users.error, 'Failed to fetch users.')}
        </ErrorMessage>
      </>
    );
  }

  const enableFailed = setDisabled.isError && !acting;

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setAdding(true)}>
            Add User
          </Button>
        }
      />
      <section
        aria-label="Two-factor sign-in"
        className="mb-6 rounded-card border border-line bg-surface px-4 py-3 shadow-xs"
      >
        <RequireTwoFactorSwitch />
        <p className="mt-1 text-xs text-ink-muted">
          When required, whoever has not turned it on is sent to do so before anything else.
        </p>
      </section>

      <div className="mb-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <PagedSearchInput
          search={search}
          aria-label="Search users"
          placeholder="Search E-mail..."
          maxLength={EMAIL_MAX_LENGTH}
        />
        {!users.isPending && (
          <SearchSummary fetching={search.isFetching(users)}>
            {searching ? counted(totalItems, 'match', 'matches') : counted(totalItems, 'user')}
          </SearchSummary>
        )}
      </div>
      {enableFailed && (
        <ErrorMessage className="mb-4">
          {errorMessage(setDisabled.error, 'Failed to enable the user.')}
        </ErrorMessage>
      )}
      <UsersTable
        rows={users.data?.users ?? []}
        loading={users.isPending}
        searching={searching}
        ownEmail={ownEmail}
        planNames={planNames}
        onAction={onAction}
        onTwoFactorReset={() => void users.refetch()}
      />
      <Pagination className="mt-4" page={page} pageCount={pageCount} onPageChange={setPage} />

      {adding && <CreateUserDialog onClose={() => setAdding(false)} />}
      {acting?.action === 'level' && (
        <LevelDialog user={acting.user} isSelf={isSelf(acting.user)} onClose={close} />
      )}
      {acting?.action === 'plan' && (
        <PlanAssignDialog user={acting.user} plans={plans.data ?? []} onClose={close} />
      )}
      {acting?.action === 'password' && (
        <ResetPasswordDialog user={acting.user} isSelf={isSelf(acting.user)} onClose={close} />
      )}
      {acting?.action === 'disable' && (
        <UserActionDialog
          title="Disable User"
          message={`Disable ${acting.user.email}? They are signed out everywhere, their API keys are revoked, and they cannot sign in until enabled again${isSelf(acting.user) ? ' (that is you)' : ''}.`}
          confirmLabel="Disable"
          busyLabel="Disabling..."
          busy={setDisabled.isPending}
          error={setDisabled.error}
          failureText="Failed to disable the user."
          onConfirm={() =>
            setDisabled.mutate(
              { id: acting.user.id, disabled: true },
              {
                onSuccess: (saved) => {
                  toast.success(`${saved.email} disabled.`);
                  close();
                },
              },
            )
          }
          onClose={close}
        />
      )}
      {acting?.action === 'keys' && <UserApiKeysDialog user={acting.user} onClose={close} />}
      {acting?.action === 'delete' && (
        <UserActionDialog
          title="Delete User"
          message={`Delete ${acting.user.email}? Their sessions, API keys and everything of theirs in Guardian go with them. This action cannot be undone.`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={deleteUser.isPending}
          error={deleteUser.error}
          failureText="Failed to delete the user."
          onConfirm={() =>
            deleteUser.mutate(acting.user.id, {
              onSuccess: () => {
                toast.success(`User ${acting.user.email} deleted.`);
                close();
              },
            })
          }
          onClose={close}
        />
      )}
    </>
  );
}
