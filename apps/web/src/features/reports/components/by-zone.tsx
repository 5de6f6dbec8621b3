import { BarTable, type BarColumn } from '../../../components/charts/bar-table';
import { formatCount } from '../../../components/charts/format';

interface ByZoneProps<T extends { zone_id: string; domain: string }> {
  /** The report's zones, the largest count first (the server keeps the 20 largest). */
  rows: readonly T[];
  /** Zones of the report not among the rows. */
  more: number;
  /** Figures shown between the zone's name and its bar. */
  columns: BarColumn<T>[];
  count: (row: T) => number;
  countLabel: string;
  empty: string;
}

/** A report's "By zone" table: each zone by its name, its figures and its count as a bar. */
export function ByZone<T extends { zone_id: string; domain: string }>({
  rows,
  more,
  columns,
  count,
  countLabel,
  empty,
}: ByZoneProps<T>) {
  return (
    <BarTable
      title="By zone"
      description={
        more > 0
          ? `The ${formatCount(rows.length)} zones with the most; ${formatCount(more)} more not shown`
          : undefined
      }
      rows={rows}
      rowKey={(row) => row.zone_id}
      columns={[
        { header: 'Zone', cell: (row) => <span className="break-all">{row.domain || row.zone_id}</span> },
        ...columns,
      ]}
      count={count}
      countLabel={countLabel}
      empty={empty}
    />
  );
}
