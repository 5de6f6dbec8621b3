import { clsx } from 'clsx';
import { LIST_PLAN_NAMES, LIST_PLANS, type AccountCapacity, type ListPlan } from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Spinner } from '../../../components/ui/spinner';
import { useListCapacityQuery, useSetListPlanMutation } from '../../../api/ip-search/list-capacity-query';
import { errorMessage } from '../../../lib/api';

/** Where the account's plan came from, as the card says it. */
const SOURCE_WORDS: Record<AccountCapacity['plan_source'], string> = {
  setting: 'set by you',
  zones: 'from Cloudflare: zone plans',
  inferred: 'inferred from its lists',
  assumed: 'assumed: choose the plan',
};

/** "2 of 10", with a bar that turns amber past 80% and red at the limit. */
function UsedOf({ used, limit, what }: { used: number; limit: number; what: string }) {
  const share = Math.min(1, used / limit);
  return (
    <div className="space-y-1">
      <div className="flex justify-between gap-2">
        <span className="text-ink-muted">{what}</span>
        <span className={clsx(used >= limit ? 'font-medium text-danger-hover' : 'text-ink')}>
          {used.toLocaleString('en-US')} of {limit.toLocaleString('en-US')}
        </span>
      </div>
      <div
        role="meter"
        aria-label={`${what} used`}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        className="h-1.5 w-full overflow-hidden rounded-full bg-canvas"
      >
        <div
          className={clsx(
            'h-full rounded-full',
            share >= 1 ? 'bg-danger' : share >= 0.8 ? 'bg-warning' : 'bg-brand',
          )}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </div>
    </div>
  );
}

/**
 * Each account's Lists quotas (Cloudflare's per plan): lists and items used, of the limit. The plan is
 * the highest of the account's zones' as Cloudflare describes them (Enterprise when its lists prove
 * it, Free when nothing says), and the person can set another here; each card says where its plan
 * came from.
 */
export function ListCapacity() {
  const capacity = useListCapacityQuery();
  const setPlan = useSetListPlanMutation();
  const accounts = capacity.data?.accounts ?? [];
  return (
    <section aria-labelledby="list-capacity" className="mt-8 space-y-3">
      <h2 id="list-capacity" className="text-base font-semibold text-ink">
        Capacity
      </h2>
      <p className="text-sm text-ink-muted">
        Used of Cloudflare&apos;s list quotas per account: Free 1 list, Pro and Business 10 lists sharing
        10,000 items, Enterprise 1,000 lists and 500,000 items.
      </p>
      {capacity.isError ? (
        <ErrorMessage onRetry={() => void capacity.refetch()}>Failed to load the capacity.</ErrorMessage>
      ) : capacity.isPending ? (
        <Spinner label="Loading capacity" />
      ) : accounts.length === 0 ? (
        <p className="text-sm text-ink-muted">No Cloudflare accounts yet.</p>
      ) : (
        <ul aria-label="List capacity per account" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {accounts.map((account) => {
            const source = SOURCE_WORDS[account.plan_source];
            const chosen = account.plan_source === 'setting';
            return (
              <li
                key={account.account_id}
                aria-label={account.account_name}
                className="space-y-3 rounded-control border border-line bg-surface px-4 py-3 text-sm"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-medium break-words text-ink">{account.account_name}</p>
                    <p className="text-xs text-ink-muted">
                      {LIST_PLAN_NAMES[account.plan]} plan, {source}
                    </p>
                  </div>
                  <select
                    aria-label={`Plan of ${account.account_name}`}
                    className="rounded-control border border-line-strong bg-surface px-2 py-1 text-sm"
                    value={chosen ? account.plan : ''}
                    disabled={setPlan.isPending}
                    onChange={(event) =>
                      setPlan.mutate({
                        accountId: account.account_id,
                        plan: event.target.value === '' ? null : (event.target.value as ListPlan),
                      })
                    }
                  >
                    <option value="">
                      {chosen
                        ? 'Not set: learn it from Cloudflare'
                        : `${LIST_PLAN_NAMES[account.plan]} (${source})`}
                    </option>
                    {LIST_PLANS.map((plan) => (
                      <option key={plan} value={plan}>
                        {LIST_PLAN_NAMES[plan]}
                      </option>
                    ))}
                  </select>
                </div>
                <UsedOf used={account.lists.used} limit={account.lists.limit} what="Lists" />
                <UsedOf used={account.items.used} limit={account.items.limit} what="Items" />
              </li>
            );
          })}
        </ul>
      )}
      {setPlan.isError && (
        <ErrorMessage>{errorMessage(setPlan.error, 'Failed to save the plan.')}</ErrorMessage>
      )}
    </section>
  );
}
