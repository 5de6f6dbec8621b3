import { Link } from 'react-router';
import type { IpSearchMatch, IpSearchRelation } from '@guardian/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import {
  Table,
  TableBody,
  TableCell,
  TableEmptyRow,
  TableHead,
  TableHeaderCell,
  TableLoadingRow,
  TableRow,
} from '../../../components/ui/table';

const COLUMN_COUNT = 5;

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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
  matches: IpSearchMatch[];
  loading: boolean;
  /** What the empty answer says. */
  empty: string;
}

/** The items that hold (or lie inside) the searched value, with their account and list. */
export function IpSearchResultsTable({ matches, loading, empty }: IpSearchResultsTableProps) {
  return (
    <Table caption="Lists holding the search">
      <TableHead>
        <TableHeaderCell>Account Name</TableHeaderCell>
        <TableHeaderCell>List Name</TableHeaderCell>
        <TableHeaderCell>Item</TableHeaderCell>
        <TableHeaderCell>Comment</TableHeaderCell>
        <TableHeaderCell>Created On</TableHeaderCell>
      </TableHead>
      <TableBody>
        {loading ? (
          <TableLoadingRow colSpan={COLUMN_COUNT}>Searching your lists...</TableLoadingRow>
        ) : matches.length === 0 ? (
          <TableEmptyRow colSpan={COLUMN_COUNT}>{empty}</TableEmptyRow>
        ) : (
          matches.map((match) => {
            const relation = RELATIONS[match.relation];
            return (
              <TableRow key={`${match.list_id}:${match.item_id}`}>
                <TableCell label="Account Name" className="break-words">
                  {match.account_name}
                </TableCell>
                <TableCell label="List Name" className="break-all">
                  <Link
                    to={`/cloudflare/banlists/${encodeURIComponent(match.list_id)}/items`}
                    className="font-medium text-brand underline-offset-2 hover:underline"
                  >
                    {match.list_name}
                  </Link>
                </TableCell>
                <TableCell label="Item">
                  <span className="inline-flex flex-wrap items-center gap-2">
                    <span className="font-mono text-xs break-all">{match.ip}</span>
                    <Badge tone={relation.tone}>{relation.label}</Badge>
                  </span>
                </TableCell>
                <TableCell label="Comment" className="max-w-md min-w-40 break-words">
                  {match.comment}
                </TableCell>
                <TableCell label="Created On" className="whitespace-nowrap text-ink-muted">
                  <time dateTime={match.created_on}>{formatCreatedOn(match.created_on)}</time>
                </TableCell>
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );
}
