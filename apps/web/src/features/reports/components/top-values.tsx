import type { ReactNode } from 'react';
import { BarTable } from '../../../components/charts/bar-table';

/** What a top table shows in its first column, by what the values are. */
const CELLS = {
  plain: (value: string): ReactNode => value,
  host: (value: string): ReactNode => <span className="break-all">{value}</span>,
  path: (value: string): ReactNode => <span className="font-mono break-all">{value}</span>,
};

interface TopValuesProps {
  title: string;
  /** The first column's header ("Country", "Host", "Path"). */
  header: string;
  rows: readonly { value: string; count: number }[];
  /** The count's column header ("Events", "Requests"). */
  countLabel: string;
  empty: string;
  kind?: keyof typeof CELLS;
}

/** A report's top table of plain values (countries, hosts, paths) with their counts as bars. */
export function TopValues({ title, header, rows, countLabel, empty, kind = 'plain' }: TopValuesProps) {
  return (
    <BarTable
      title={title}
      rows={rows}
      rowKey={(row) => row.value}
      columns={[{ header, cell: (row) => CELLS[kind](row.value) }]}
      count={(row) => row.count}
      countLabel={countLabel}
      empty={empty}
    />
  );
}

type TopRows = readonly { value: string; count: number }[];

/** A report's top hosts and top paths, one after the other in its grid, counted in `countLabel`. */
export function TopHostsAndPaths({
  report,
  ...counts
}: {
  report: { top_hosts: TopRows; top_paths: TopRows };
  countLabel: string;
  empty: string;
}) {
  return (
    <>
      <TopValues title="Top hosts" header="Host" rows={report.top_hosts} {...counts} kind="host" />
      <TopValues title="Top paths" header="Path" rows={report.top_paths} {...counts} kind="path" />
    </>
  );
}
