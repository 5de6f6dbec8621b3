import { useMemo, useState } from 'react';
import {
  BAN_LIST_ITEM_COMMENT_MAX,
  ITEM_EXPIRY_LABELS,
  ITEM_EXPIRY_PRESETS,
  capacityWarning,
  type BanEverywhereRequest,
  type BanList,
  type BanListKind,
  type IpSearchActionAnswer,
  type IpSearchAnswer,
  type ItemExpiryPreset,
} from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input, Select } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { useBanListsQuery } from '../../../api/ban-lists/ban-lists-query';
import { banEverywhere } from '../../../api/ip-search/ip-search-actions';
import { useListCapacityQuery } from '../../../api/ip-search/list-capacity-query';
import { errorMessage } from '../../../lib/api';
import { purposeLabel, purposeSourceWords } from '../../../lib/ban-list-purpose';
import { counted } from '../../../lib/counted';

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

interface BanEverywhereDialogProps {
  answer: IpSearchAnswer;
  onClose: () => void;
  /** The call answered: each account's job, to follow on the page. */
  onStarted: (answer: IpSearchActionAnswer, value: string) => void;
}

/**
 * Ban everywhere: the searched value, a comment and an expiry, into the chosen lists of every account.
 * The person's lists of the right kind, grouped by account, each marked with its purpose and where it
 * came from; the blocklists are chosen to start with; those already holding the value exactly are
 * marked and left out; an account whose quota one more item would pass is warned about. Banning
 * into an allowlist (whose items Cloudflare lets through) is asked about first, naming them.
 */
export function BanEverywhereDialog({ answer, onClose, onStarted }: BanEverywhereDialogProps) {
  const kind = LIST_KIND[answer.query.kind];
  const value = answer.query.value;
  const lists = useBanListsQuery();
  const capacity = useListCapacityQuery();
  const holding = useMemo(
    () =>
      new Set(
        answer.lists
          .filter((list) => list.matches.some((m) => m.relation === 'exact'))
          .map((list) => list.list_id),
      ),
    [answer],
  );
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
  const [changed, setChanged] = useState<Set<string> | null>(null);
  const chosen = useMemo(
    () =>
      changed ??
      new Set(
        groups.flatMap(([, group]) =>
          group.lists
            .filter((list) => list.purpose === 'block' && !holding.has(list.list_id))
            .map((list) => list.list_id),
        ),
      ),
    [changed, groups, holding],
  );
  const confirm = useConfirm();
  const [comment, setComment] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [date, setDate] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  const toggle = (listId: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(listId);
    else next.delete(listId);
    setChanged(next);
  };

  const warnings = groups.flatMap(([accountId, group]) => {
    const adding = group.lists.filter((list) => chosen.has(list.list_id)).length;
    const account = capacity.data?.accounts.find((entry) => entry.account_id === accountId);
    const warning = adding > 0 && account ? capacityWarning(account, { items: adding }) : undefined;
    return warning ? [warning] : [];
  });

  const submit = async () => {
    setProblem(null);
    setFailure(null);
    if (chosen.size === 0) return setProblem('Choose at least one list.');
    if (comment.trim() === '') return setProblem('Comment is required.');
    let expires: BanEverywhereRequest['expires'] = expiry === 'date' ? undefined : expiry;
    if (expiry === 'date') {
      const at = new Date(date);
      if (date === '' || Number.isNaN(at.getTime())) return setProblem('Choose the expiry date and time.');
      if (at.getTime() <= Date.now()) return setProblem('The expiry date must be in the future.');
      expires = at.toISOString();
    }
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
    setSaving(true);
    try {
      const started = await banEverywhere({
        value,
        comment: comment.trim(),
        list_ids: [...chosen],
        ...(expires && expires !== 'never' ? { expires } : {}),
      });
      onStarted(started, value);
    } catch (err) {
      setFailure(err);
    } finally {
      setSaving(false);
    }
  };

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
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
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
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            placeholder="Why it is banned"
            maxLength={BAN_LIST_ITEM_COMMENT_MAX}
            autoComplete="off"
          />
        )}
      </Field>
      <Field label="Expires">
        {(control) => (
          <Select
            {...control}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value as ExpiryChoice)}
          >
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
          {(control) => (
            <Input
              {...control}
              type="datetime-local"
              value={date}
              onChange={(event) => setDate(event.target.value)}
            />
          )}
        </Field>
      )}
      {problem && (
        <p role="alert" className="text-sm text-danger-hover">
          {problem}
        </p>
      )}
      {failure !== null && <ErrorMessage>{errorMessage(failure, 'An unknown error occurred.')}</ErrorMessage>}
    </Dialog>
  );
}
