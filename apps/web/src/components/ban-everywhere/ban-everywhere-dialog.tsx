import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  BAN_LIST_ITEM_COMMENT_MAX,
  ITEM_EXPIRY_LABELS,
  ITEM_EXPIRY_PRESETS,
  banEverywhereRequestSchema,
  capacityWarning,
  type BanList,
  type BanListKind,
  type IpSearchActionAnswer,
  type IpSearchAnswer,
  type ItemExpiryPreset,
} from '@guardian/contract';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { useConfirm } from '../ui/confirm-dialog';
import { Dialog } from '../ui/dialog';
import { ErrorMessage } from '../ui/error-message';
import { Field, Input, Select } from '../ui/input';
import { Spinner } from '../ui/spinner';
import { useBanListsQuery } from '../../api/ban-lists/ban-lists-query';
import { useBanEverywhereMutation } from '../../api/ip-search/ip-search-actions';
import { useListCapacityQuery } from '../../api/ip-search/list-capacity-query';
import { errorMessage } from '../../lib/api';
import { purposeLabel, purposeSourceWords } from '../../lib/ban-list-purpose';
import { counted } from '../../lib/counted';
import { useDialogForm } from '../../lib/use-dialog-form';

/** The lists a search's value goes in: an address or CIDR in ip lists, the others in their own kind. */
const LIST_KIND: Record<IpSearchAnswer['query']['kind'], BanListKind> = {
  address: 'ip',
  cidr: 'ip',
  hostname: 'hostname',
  asn: 'asn',
};

const KIND_WORDS: Record<BanListKind, string> = {
  ip: 'IP',
  hostname: 'hostname',
  asn: 'ASN',
  redirect: 'redirect',
};

type ExpiryChoice = ItemExpiryPreset | 'date';

/** The dialog's fields; `list_ids` stays null until the person changes the lists chosen for them. */
interface BanEverywhereForm {
  list_ids: string[] | null;
  comment: string;
  expiry: ExpiryChoice;
  date: string;
}

/**
 * The request's lists and comment by the contract's rules, and an expiry date once "A date..." is
 * chosen; the answer is the request without its value (the search's).
 */
const banEverywhereFormSchema = banEverywhereRequestSchema
  .pick({ list_ids: true, comment: true })
  .extend({ expiry: z.enum([...ITEM_EXPIRY_PRESETS, 'date']), date: z.string() })
  .superRefine(({ expiry, date }, context) => {
    if (expiry !== 'date') return;
    const at = new Date(date);
    if (date === '' || Number.isNaN(at.getTime()))
      context.addIssue({ code: 'custom', path: ['date'], message: 'Choose the expiry date and time.' });
    else if (at.getTime() <= Date.now())
      context.addIssue({ code: 'custom', path: ['date'], message: 'The expiry date must be in the future.' });
  })
  .transform(({ list_ids, comment, expiry, date }) => ({
    list_ids,
    comment,
    ...(expiry === 'never' ? {} : { expires: expiry === 'date' ? new Date(date).toISOString() : expiry }),
  }));

const checkBanEverywhere = zodResolver(banEverywhereFormSchema);
type BanEverywhereFields = z.output<typeof banEverywhereFormSchema>;

/** What Ban everywhere bans: a value, the kind of list it goes in, and the lists already holding it exactly. */
export interface BanTarget {
  value: string;
  kind: BanListKind;
  /** Lists (Guardian's list ids) already holding the value: marked and left out. */
  holding: ReadonlySet<string>;
}

/** An IP Lists search's answer as what Ban everywhere bans: its value, and the lists holding it exactly. */
export function banTargetOf(answer: IpSearchAnswer): BanTarget {
  return {
    value: answer.query.value,
    kind: LIST_KIND[answer.query.kind],
    holding: new Set(
      answer.lists
        .filter((list) => list.matches.some((m) => m.relation === 'exact'))
        .map((list) => list.list_id),
    ),
  };
}

interface BanEverywhereDialogProps {
  target: BanTarget;
  /** The comment the dialog starts with (the context it was opened from); the person may change it. */
  comment?: string;
  onClose: () => void;
  /** The call answered: each account's job, to follow on the page. */
  onStarted: (answer: IpSearchActionAnswer, value: string) => void;
}

/**
 * Ban everywhere: a value (an IP Lists search's, a report's attacker), a comment and an expiry, into the
 * chosen lists of every account. The person's lists of the right kind, grouped by account, each marked
 * with its purpose and where it came from; the blocklists are chosen to start with; those already
 * holding the value exactly are marked and left out; an account whose quota one more item would pass is
 * warned about. Banning into an allowlist (whose items Cloudflare lets through) is asked about first,
 * naming them.
 */
export function BanEverywhereDialog({ target, comment = '', onClose, onStarted }: BanEverywhereDialogProps) {
  const { value, kind, holding } = target;
  const lists = useBanListsQuery();
  const capacity = useListCapacityQuery();
  const groups = useMemo(() => {
    const byAccount = new Map<string, { name: string; lists: BanList[] }>();
    for (const list of lists.data ?? []) {
      if (list.kind !== kind) continue;
      const group = byAccount.get(list.account_id) ?? { name: list.account_name, lists: [] };
      group.lists.push(list);
      byAccount.set(list.account_id, group);
    }
    return [...byAccount.entries()];
  }, [lists.data, kind]);

  // Until the person changes the choice, the blocklists not holding the value yet.
  const initiallyChosen = useMemo(
    () =>
      groups.flatMap(([, group]) =>
        group.lists
          .filter((list) => list.purpose === 'block' && !holding.has(list.list_id))
          .map((list) => list.list_id),
      ),
    [groups, holding],
  );
  const ban = useBanEverywhereMutation();
  // The lists go to the check as chosen (the blocklists until the person changes them).
  const resolver: Resolver<BanEverywhereForm, unknown, BanEverywhereFields> = (values, context, options) =>
    checkBanEverywhere(
      { ...values, list_ids: values.list_ids ?? initiallyChosen },
      context,
      options as unknown as Parameters<typeof checkBanEverywhere>[2],
    );
  const form = useDialogForm({
    resolver,
    defaultValues: { list_ids: null, comment, expiry: 'never', date: '' },
    saves: [ban],
  });
  const { errors } = form.formState;
  const changed = form.watch('list_ids');
  const chosen = useMemo(() => new Set(changed ?? initiallyChosen), [changed, initiallyChosen]);
  const expiry = form.watch('expiry');
  // One message at a time, the first of the fields in the dialog's order.
  const problem = (errors.list_ids ?? errors.comment ?? errors.date ?? errors.expiry)?.message;
  const confirm = useConfirm();

  const toggle = (listId: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(listId);
    else next.delete(listId);
    form.setValue('list_ids', [...next], { shouldValidate: form.formState.isSubmitted });
  };

  const warnings = groups.flatMap(([accountId, group]) => {
    const adding = group.lists.filter((list) => chosen.has(list.list_id)).length;
    const account = capacity.data?.accounts.find((entry) => entry.account_id === accountId);
    const warning = adding > 0 && account ? capacityWarning(account, { items: adding }) : undefined;
    return warning ? [warning] : [];
  });

  const submit = form.submitWith(async (request) => {
    const allowlists = groups.flatMap(([, group]) =>
      group.lists
        .filter((list) => chosen.has(list.list_id) && list.purpose === 'allow')
        .map((list) => `${list.list_name} (${group.name})`),
    );
    if (allowlists.length > 0) {
      const sure = await confirm({
        title: 'Ban into an allowlist?',
        message: `${allowlists.join(', ')} ${allowlists.length === 1 ? 'is an allowlist' : 'are allowlists'}: Cloudflare lets the addresses of an allowlist through. Adding ${value} there allows it instead of blocking it.`,
        confirmLabel: `Ban in ${counted(chosen.size, 'list')} anyway`,
      });
      if (!sure) return;
    }
    ban.mutate({ value, ...request }, { onSuccess: (started) => onStarted(started, value) });
  });
  const saving = ban.isPending;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Ban everywhere"
      description={
        <>
          Add <span className="font-mono">{value}</span> to the chosen {KIND_WORDS[kind]} lists of your
          accounts. Each account is done on its own; this page shows how each one goes.
        </>
      }
      size="lg"
      busy={saving}
      onSubmit={(event) => void submit(event)}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={saving}>
            {saving ? 'Banning...' : chosen.size > 0 ? `Ban in ${counted(chosen.size, 'list')}` : 'Ban'}
          </Button>
        </>
      }
    >
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-ink">Lists</legend>
        {lists.isPending ? (
          <Spinner label="Loading your lists" />
        ) : lists.isError ? (
          <ErrorMessage onRetry={() => void lists.refetch()}>Failed to load your lists.</ErrorMessage>
        ) : groups.length === 0 ? (
          <p className="text-sm text-ink-muted">You have no {KIND_WORDS[kind]} lists.</p>
        ) : (
          groups.map(([accountId, group]) => {
            const account = capacity.data?.accounts.find((entry) => entry.account_id === accountId);
            return (
              <div key={accountId} role="group" aria-label={group.name} className="space-y-1">
                <p className="text-sm font-semibold text-ink">
                  {group.name}
                  {account && (
                    <span className="ml-2 font-normal text-ink-muted">
                      {account.items.used.toLocaleString('en-US')} of{' '}
                      {account.items.limit.toLocaleString('en-US')} items
                    </span>
                  )}
                </p>
                <ul className="space-y-1 pl-1">
                  {group.lists.map((list) => {
                    const already = holding.has(list.list_id);
                    return (
                      <li key={list.list_id} className="flex flex-wrap items-center gap-x-2 gap-y-1">
                        <label className="flex items-center gap-2 text-sm text-ink">
                          <input
                            type="checkbox"
                            className="size-4 accent-brand"
                            checked={chosen.has(list.list_id)}
                            disabled={already}
                            aria-describedby={list.purpose ? `purpose-${list.list_id}` : undefined}
                            onChange={(event) => toggle(list.list_id, event.target.checked)}
                          />
                          <span className="break-all">{list.list_name}</span>
                          {already && <span className="text-ink-muted">(already holds it)</span>}
                        </label>
                        {list.purpose && (
                          <span className="inline-flex items-center gap-1.5">
                            <span id={`purpose-${list.list_id}`} className="sr-only">
                              {purposeLabel(list)}, {purposeSourceWords(list)}
                            </span>
                            <Badge tone={list.purpose === 'allow' ? 'yellow' : 'grey'}>
                              <span aria-hidden="true">{purposeLabel(list)}</span>
                            </Badge>
                            <span aria-hidden="true" className="text-xs text-ink-muted">
                              {purposeSourceWords(list)}
                            </span>
                          </span>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })
        )}
      </fieldset>
      {warnings.map((warning) => (
        <p
          key={warning}
          role="note"
          className="rounded-control border border-warning/30 bg-warning-soft px-3 py-2 text-sm text-warning"
        >
          {warning}
        </p>
      ))}
      <Field label="Comment" required>
        {(control) => (
          <Input
            {...control}
            {...form.register('comment')}
            placeholder="Why it is banned"
            maxLength={BAN_LIST_ITEM_COMMENT_MAX}
            autoComplete="off"
          />
        )}
      </Field>
      <Field label="Expires">
        {(control) => (
          <Select {...control} {...form.register('expiry')}>
            {ITEM_EXPIRY_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {ITEM_EXPIRY_LABELS[preset]}
              </option>
            ))}
            <option value="date">A date...</option>
          </Select>
        )}
      </Field>
      {expiry === 'date' && (
        <Field label="Expiry date and time" required>
          {(control) => <Input {...control} {...form.register('date')} type="datetime-local" />}
        </Field>
      )}
      {problem && (
        <p role="alert" className="text-sm text-danger-hover">
          {problem}
        </p>
      )}
      {ban.isError && <ErrorMessage>{errorMessage(ban.error, 'An unknown error occurred.')}</ErrorMessage>}
    </Dialog>
  );
}
