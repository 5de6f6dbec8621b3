import { Gauge, KeyRound, KeySquare, UserCheck, UserCog, UserX, type LucideIcon } from 'lucide-react';
import type { User } from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { Button, DeleteButton } from '../../../components/ui/button';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../../components/ui/table';
import { Tooltip } from '../../../components/ui/tooltip';
import { ResetTwoFactorAction } from '../../../components/two-factor/reset-two-factor-action';
import { levelLabel } from '../lib/user-forms';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

export type UserAction = 'level' | 'plan' | 'disable' | 'enable' | 'password' | 'keys' | 'delete';

interface UsersTableProps {
  rows: User[];
  loading: boolean;
  /** True while a search finds nobody, to say so instead of "no users". */
  searching: boolean;
  /** The signed-in administrator's e-mail, to mark their own row. */
  ownEmail: string;
  /** Each plan's name by its id (the Plan column). */
  planNames: ReadonlyMap<number, string>;
  onAction: (action: UserAction, user: User) => void;
  /** After a person's two-factor was reset: the page reads the rows again. */
  onTwoFactorReset: () => void;
}

/** Administrators' users table: e-mail, level, plan, state, two-factor, last sign-in, created, actions. */
export function UsersTable({
  rows,
  loading,
  searching,
  ownEmail,
  planNames,
  onAction,
  onTwoFactorReset,
}: UsersTableProps) {
  return (
    <DataTable
      caption="Users"
      columns={['E-mail', 'Level', 'Plan', 'State', 'Two-Factor', 'Last Sign-In', 'Created', 'Actions']}
      loading={loading}
      loadingText="Loading users..."
      rows={rows}
      empty={searching ? 'No users match your search.' : 'No users yet.'}
    >
      {(user) => (
        <TableRow key={user.id}>
          <TableCell label="E-mail" className="font-medium break-words">
            {/* One element: a card's value column takes one item. */}
            <span>
              <EmailText email={user.email} />
              {user.email.toLowerCase() === ownEmail.toLowerCase() && (
                <span className="ml-1.5 font-normal whitespace-nowrap text-ink-muted">(you)</span>
              )}
            </span>
          </TableCell>
          <TableCell label="Level" className="whitespace-nowrap">
            {user.level === 0 ? <Badge tone="blue">{levelLabel(user.level)}</Badge> : levelLabel(user.level)}
          </TableCell>
          <TableCell label="Plan">{planNames.get(user.plan_id) ?? '…'}</TableCell>
          <TableCell label="State">
            <Badge tone={user.disabled ? 'grey' : 'green'}>{user.disabled ? 'Disabled' : 'Active'}</Badge>
          </TableCell>
          <TableCell label="Two-Factor">
            <Badge tone={user.two_factor ? 'green' : 'grey'}>{user.two_factor ? 'On' : 'Off'}</Badge>
          </TableCell>
          <TableCell label="Last Sign-In" className="text-ink-muted">
            {user.last_sign_in_at ? (
              <time dateTime={user.last_sign_in_at}>{dateTime.format(new Date(user.last_sign_in_at))}</time>
            ) : (
              'Never'
            )}
          </TableCell>
          <TableCell label="Created" className="whitespace-nowrap text-ink-muted">
            <time dateTime={user.created_at}>{date.format(new Date(user.created_at))}</time>
          </TableCell>
          <TableActionsCell
            label="Actions"
            className="cards:max-w-full [&>div]:gap-1 cards:[&>div]:flex-wrap"
          >
            <IconAction action="level" user={user} onAction={onAction} />
            <IconAction action="plan" user={user} onAction={onAction} />
            <IconAction action={user.disabled ? 'enable' : 'disable'} user={user} onAction={onAction} />
            <IconAction action="password" user={user} onAction={onAction} />
            <IconAction action="keys" user={user} onAction={onAction} />
            {user.two_factor && (
              <ResetTwoFactorAction userId={user.id} email={user.email} onReset={onTwoFactorReset} />
            )}
            <DeleteButton label={`Delete ${user.email}`} onClick={() => onAction('delete', user)} />
          </TableActionsCell>
        </TableRow>
      )}
    </DataTable>
  );
}

/** An e-mail that may break after its @ when the column is narrow, never inside a name. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/** The icon actions of a row: the tooltip's words, the icon, and the name a screen reader hears. */
const ICON_ACTIONS: Record<
  Exclude<UserAction, 'delete'>,
  { tip: string; icon: LucideIcon; label: (email: string) => string }
> = {
  level: { tip: 'Change level', icon: UserCog, label: (email) => `Change level of ${email}` },
  plan: { tip: 'Change plan', icon: Gauge, label: (email) => `Change plan of ${email}` },
  enable: { tip: 'Enable', icon: UserCheck, label: (email) => `Enable ${email}` },
  disable: { tip: 'Disable', icon: UserX, label: (email) => `Disable ${email}` },
  password: { tip: 'Reset password', icon: KeyRound, label: (email) => `Reset password of ${email}` },
  keys: { tip: 'API keys', icon: KeySquare, label: (email) => `API keys of ${email}` },
};

/**
 * A row action as an icon, named for screen readers (its name starts with the words shown) and
 * explained by a tooltip on hover and focus.
 */
function IconAction({
  action,
  user,
  onAction,
}: {
  action: keyof typeof ICON_ACTIONS;
  user: User;
  onAction: (action: UserAction, user: User) => void;
}) {
  const { tip, icon: Icon, label } = ICON_ACTIONS[action];
  return (
    <Tooltip content={tip}>
      {/* On a card (a phone: no hover) the words show beside the icon. */}
      <Button
        variant="ghost"
        size="icon"
        className="cards:w-auto cards:gap-1.5 cards:px-2 cards:text-sm"
        aria-label={label(user.email)}
        onClick={() => onAction(action, user)}
      >
        <Icon aria-hidden="true" className="size-4" />
        <span aria-hidden="true" className="hidden cards:inline">
          {tip}
        </span>
      </Button>
    </Tooltip>
  );
}
