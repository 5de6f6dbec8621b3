import { useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Ban, Search, Trash2 } from 'lucide-react';
import {
  IP_SEARCH_MATCHES_MAX,
  IP_SEARCH_QUERY_MAX,
  type IpSearchActionAnswer,
  type IpSearchAnswer,
} from '@guardian/contract';
import { Button } from '../../components/ui/button';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { SearchInput } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { ApiError, errorMessage } from '../../lib/api';
import { useIpSearchQuery } from '../../api/ip-search/ip-search-query';
import { removeMatches } from '../../api/ip-search/ip-search-actions';
import {
  IpSearchResultsTable,
  matchKey,
  matchRows,
  type MatchRow,
} from './components/ip-search-results-table';
import { ActionProgress } from '../../components/ban-everywhere/action-progress';
import { useActionRun } from '../../components/ban-everywhere/use-action-run';
import { BanEverywhereDialog, banTargetOf } from '../../components/ban-everywhere/ban-everywhere-dialog';
import { counted } from '../../lib/counted';
import { usePagedRows } from '../../lib/use-paged-rows';

const INPUT_ID = 'ip-search-q';
const HINT_ID = 'ip-search-hint';
const ERROR_ID = 'ip-search-error';
/** Matches a page, as the items screen's pages: a /16 can answer 500 (IP_SEARCH_MATCHES_MAX). */
const MATCHES_PER_PAGE = 100;

/** "Where is this address?": the sidebar's IP Lists page (/cloudflare/ips). */
export default function IpSearchScreen() {
  // The search lives in the address (?q=): a result can be linked to, and Back returns to the last one.
  const [params, setParams] = useSearchParams();
  const submitted = (params.get('q') ?? '').trim().slice(0, IP_SEARCH_QUERY_MAX);
  const [text, setText] = useState(submitted);
  const [textOf, setTextOf] = useState(submitted);
  // Back and Forward change the search: the box follows.
  if (textOf !== submitted) {
    setTextOf(submitted);
    setText(submitted);
  }
  const search = useIpSearchQuery(submitted);
  // A search the server refuses (400) is the person's to fix: said under the box, with no Retry.
  const refusal =
    search.error instanceof ApiError && search.error.status === 400
      ? (search.error.serverMessage ?? search.error.message)
      : null;
  const refused = refusal !== null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = text.trim();
    if (q === '') return;
    if (q === submitted) void search.refetch();
    else setParams({ q });
  };

  return (
    <>
      <PageHeader
        title="IP Lists"
        description="Where is this address? Search every list of your Cloudflare accounts at once."
      />
      <form
        role="search"
        aria-label="Search your lists"
        onSubmit={submit}
        className="mb-6 max-w-2xl space-y-2"
      >
        <label htmlFor={INPUT_ID} className="block text-sm font-medium text-ink">
          IP address, CIDR, hostname or AS number
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <SearchInput
            id={INPUT_ID}
            className="w-full sm:flex-1"
            placeholder="203.0.113.7, 2001:db8::/32, host.example.com, AS13335"
            autoComplete="off"
            spellCheck={false}
            maxLength={IP_SEARCH_QUERY_MAX}
            value={text}
            invalid={refused}
            aria-describedby={refused ? `${ERROR_ID} ${HINT_ID}` : HINT_ID}
            onSearch={setText}
          />
          <Button
            type="submit"
            icon={<Search aria-hidden="true" className="size-4" />}
            loading={search.isFetching}
            disabled={text.trim() === ''}
          >
            Search
          </Button>
        </div>
        {refused && (
          <p id={ERROR_ID} role="alert" className="text-sm text-danger-hover">
            {refusal}
          </p>
        )}
        <p id={HINT_ID} className="text-sm text-ink-muted">
          An address finds the items holding it, exactly or inside a CIDR; a CIDR finds the items inside it
          and the CIDRs holding it. Hostnames and AS numbers are found where they are listed.
        </p>
      </form>
      {submitted !== '' && !refused && <Answer q={submitted} search={search} />}
    </>
  );
}

interface AnswerProps {
  q: string;
  search: ReturnType<typeof useIpSearchQuery>;
}

function Answer({ q, search }: AnswerProps) {
  const confirm = useConfirm();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [selectedFor, setSelectedFor] = useState(q);
  const [banning, setBanning] = useState(false);
  const { run, follow: followRun, dismiss } = useActionRun();
  const follow = (title: string, started: IpSearchActionAnswer) => void followRun(title, started);
  const [failure, setFailure] = useState<string | null>(null);
  const answer = search.data;
  const rows = useMemo(() => (answer ? matchRows(answer) : []), [answer]);
  const { pageRows, page, pageCount, setPage } = usePagedRows(rows, MATCHES_PER_PAGE);
  // Another search starts on its first page, with nothing chosen.
  if (selectedFor !== q) {
    setSelectedFor(q);
    setSelected(new Set());
    setPage(1);
  }

  const removeChosen = async (chosen: MatchRow[]) => {
    setFailure(null);
    const where = chosen.map((match) => `${match.list_name} (${match.account_name})`);
    const ok = await confirm({
      title: 'Remove from lists',
      message: (
        <>
          Remove these items from their lists at Cloudflare?
          {chosen.map((match, index) => (
            <span key={matchKey(match)} className="mt-1 block break-words">
              <span className="font-mono">{match.ip}</span> from {where[index]}
            </span>
          ))}
        </>
      ),
      confirmLabel: 'Remove',
    });
    if (!ok) return;
    try {
      const started = await removeMatches({
        items: chosen.map((match) => ({ list_id: match.list_id, item_id: match.item_id })),
      });
      setSelected(new Set());
      follow(`Remove ${q} from ${counted(chosen.length, 'list')}`, started);
    } catch (err) {
      setFailure(errorMessage(err, 'Failed to remove the items.'));
    }
  };

  if (search.isError) {
    return (
      <ErrorMessage onRetry={() => void search.refetch()}>
        {search.error instanceof ApiError && search.error.serverMessage
          ? `Failed to search your lists. ${search.error.serverMessage}`
          : 'Failed to search your lists.'}
      </ErrorMessage>
    );
  }
  return (
    <section aria-labelledby="ip-search-answer" className="space-y-3">
      <h2 id="ip-search-answer" className="sr-only">
        Lists holding {q}
      </h2>
      {answer && <Summary answer={answer} matches={rows.length} />}
      {answer && (
        <div className="flex flex-wrap items-center gap-2">
          <Button icon={<Ban aria-hidden="true" className="size-4" />} onClick={() => setBanning(true)}>
            Ban everywhere
          </Button>
          {rows.length > 0 && (
            <label className="flex items-center gap-2 px-1 text-sm text-ink">
              <input
                type="checkbox"
                className="size-4 accent-brand"
                checked={rows.every((match) => selected.has(matchKey(match)))}
                onChange={(event) =>
                  setSelected(event.target.checked ? new Set(rows.map(matchKey)) : new Set())
                }
              />
              Choose every match
            </label>
          )}
          <Button
            variant="secondary"
            icon={<Trash2 aria-hidden="true" className="size-4" />}
            disabled={selected.size === 0}
            onClick={() => void removeChosen(rows.filter((match) => selected.has(matchKey(match))))}
          >
            {selected.size > 0 ? `Remove from ${selected.size} chosen` : 'Remove from lists'}
          </Button>
        </div>
      )}
      {failure && <ErrorMessage>{failure}</ErrorMessage>}
      {run && <ActionProgress run={run} onDismiss={dismiss} />}
      <IpSearchResultsTable
        matches={pageRows}
        loading={search.isPending}
        empty={answer ? emptyText(answer) : ''}
        selected={selected}
        onSelectedChange={setSelected}
      />
      <Pagination className="mt-4" page={page} pageCount={pageCount} onPageChange={setPage} />
      {banning && answer && (
        <BanEverywhereDialog
          target={banTargetOf(answer)}
          onClose={() => setBanning(false)}
          onStarted={(started, value) => {
            setBanning(false);
            follow(`Ban ${value} everywhere`, started);
          }}
        />
      )}
    </section>
  );
}

const KIND_WORDS: Record<IpSearchAnswer['query']['kind'], string> = {
  address: 'IP',
  cidr: 'IP',
  hostname: 'hostname',
  asn: 'ASN',
};

function listsSearched(answer: IpSearchAnswer) {
  return counted(
    answer.lists_searched,
    `${KIND_WORDS[answer.query.kind]} list`,
    `${KIND_WORDS[answer.query.kind]} lists`,
  );
}

function emptyText(answer: IpSearchAnswer) {
  if (answer.lists_searched === 0)
    return `You have no ${KIND_WORDS[answer.query.kind]} lists to search. Lists show here once they are in Ban Lists.`;
  return `${answer.query.value} is in none of your ${listsSearched(answer)}.`;
}

/** How many matches, in how many lists, and whether the answer stops short. */
function Summary({ answer, matches }: { answer: IpSearchAnswer; matches: number }) {
  if (matches === 0) return null;
  return (
    <div className="space-y-2">
      <p className="text-sm text-ink-muted" aria-live="polite">
        {answer.truncated ? 'More than ' : ''}
        {counted(matches, 'match', 'matches')} for{' '}
        <span className="font-mono text-ink">{answer.query.value}</span> in{' '}
        {counted(answer.lists.length, 'list')} ({listsSearched(answer)} searched).
      </p>
      {answer.truncated && (
        <p
          role="status"
          className="rounded-control border border-warning/30 bg-warning-soft px-4 py-2 text-sm text-warning"
        >
          Showing the first {IP_SEARCH_MATCHES_MAX.toLocaleString()} matches. Narrow the search (a longer
          prefix) to see the others.
        </p>
      )}
    </div>
  );
}
