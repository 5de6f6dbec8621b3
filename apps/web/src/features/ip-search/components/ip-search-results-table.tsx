import { Link } from 'react-router';
import {
  ADDED_AT_CLOUDFLARE,
  type IpSearchAnswer,
  type IpSearchFoundList,
  type IpSearchMatch,
  type IpSearchRelation,
} from '@guardian/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { DataTable, TableCell, TableRow } from '../../../components/ui/table';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A row of the table: a match with its list (the answer names each list once, over its matches). */
export type MatchRow = Omit<IpSearchFoundList, 'matches'> & IpSearchMatch;

/** The answer's matches as rows, in its order: its lists', then each list's. */
export const matchRows = (answer: IpSearchAnswer): MatchRow[] =>
  answer.lists.flatMap(({ matches, ...list }) => matches.map((match) => ({ ...list, ...match })));

/** The key of a match: its list and its item. */
export const matchKey = (match: Pick<MatchRow, 'list_id' | 'item_id'>) => `${match.list_id}:${match.item_id}`;

const ADDED_VIA: Record<IpSearchMatch['added_via'], string> = {
  console: 'console',
  import: 'import',
  api: 'API',
  cloudflare: 'Cloudflare',
};

function formatCreatedOn(isoDateTime: string): string {
  const date = new Date(isoDateTime);
  return Number.isNaN(date.getTime()) ? isoDateTime : dateTimeFormat.format(date);
}

const RELATIONS: Record<IpSearchRelation, { label: string; tone: BadgeTone }> = {
  exact: { label: 'Exact', tone: 'red' },
  contains: { label: 'Holds it', tone: 'yellow' },
  within: { label: 'Inside', tone: 'blue' },
};

interface IpSearchResultsTableProps {
  matches: MatchRow[];
  loading: boolean;
  /** What the empty answer says. */
  empty: string;
  /** The matches chosen for Remove from lists (by matchKey). */
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
}

/** The items that hold (or lie inside) the searched value, with their account and list. */
export function IpSearchResultsTable({
  matches,
  loading,
  empty,
  selected,
  onSelectedChange,
}: IpSearchResultsTableProps) {
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    onSelectedChange(next);
  };
  return (
    <DataTable
      caption="Lists holding the search"
      columns={[
        { label: <span className="sr-only">Choose</span>, className: 'w-10' },
        'Account Name',
        'List Name',
        'Item',
        'Comment',
        'Created On',
        'Expires',
      ]}
      loading={loading}
      loadingText="Searching your lists..."
      rows={matches}
      empty={empty}
    >
      {(match) => {
        const relation = RELATIONS[match.relation];
        return (
          <TableRow key={matchKey(match)}>
            <TableCell label="Choose">
              <input
                type="checkbox"
                aria-label={`Choose ${match.ip} in ${match.list_name} (${match.account_name})`}
                className="size-4 accent-brand"
                checked={selected.has(matchKey(match))}
                onChange={(event) => toggle(matchKey(match), event.target.checked)}
              />
            </TableCell>
            <TableCell label="Account Name" className="break-words">
              {match.account_name}
            </TableCell>
            <TableCell label="List Name" className="break-words">
              <Link
                to={`/cloudflare/banlists/${encodeURIComponent(match.list_id)}/items`}
                className="font-medium text-brand underline-offset-2 hover:underline"
              >
                {match.list_name}
              </Link>
            </TableCell>
            <TableCell label="Item">
              <span className="inline-flex flex-wrap items-center gap-2">
                <span className="font-mono text-xs break-words">{match.ip}</span>
                <Badge tone={relation.tone}>{relation.label}</Badge>
              </span>
            </TableCell>
            <TableCell label="Comment" className="max-w-md min-w-40 break-words">
              {match.comment}
            </TableCell>
            <TableCell label="Created On" className="text-ink-muted">
              <div>
                <time dateTime={match.created_on} className="whitespace-nowrap">
                  {formatCreatedOn(match.created_on)}
                </time>
                <span className="block text-xs break-words">
                  {match.added_via === 'cloudflare'
                    ? ADDED_AT_CLOUDFLARE
                    : `by ${match.added_by} (${ADDED_VIA[match.added_via]})`}
                </span>
              </div>
            </TableCell>
            <TableCell label="Expires" className="whitespace-nowrap text-ink-muted">
              {match.expires_at ? (
                <time dateTime={match.expires_at}>{formatCreatedOn(match.expires_at)}</time>
              ) : (
                'Never'
              )}
            </TableCell>
          </TableRow>
        );
      }}
    </DataTable>
  );
}
