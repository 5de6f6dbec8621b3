import { useId, useMemo, useState } from 'react';
import { Table2 } from 'lucide-react';
import { formatBucket, formatCount, timeZoneName } from './format';
import { seriesColour } from './palette';

export interface SparklineSeries {
  /** What is counted, as a column of the table and in the summary ("Bans"). */
  label: string;
  /** One value a time, as `times`. */
  values: readonly number[];
}

interface SparklineProps {
  /** What the line is of, for the drawing's summary and the table's caption ("web-1, last 24 hours"). */
  title: string;
  /** The start of each hour (ISO), oldest first. */
  times: readonly string[];
  series: readonly SparklineSeries[];
}

const WIDTH = 112;
const HEIGHT = 28;
/** Colour is never the only cue: each series has its own dash, and its numbers in the table. */
const DASHES = [undefined, '4 2', '1 2'];

/** The series' line as SVG points: the largest value of all series reaches the top. */
function pointsOf(values: readonly number[], largest: number): string {
  const step = values.length > 1 ? (WIDTH - 2) / (values.length - 1) : 0;
  return values
    .map((value, index) => {
      const x = 1 + index * step;
      const y = HEIGHT - 1 - (value / largest) * (HEIGHT - 2);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/**
 * A chart small enough for a table's row: a few hourly series as inline SVG lines (no chart library, so a
 * list screen does not load uPlot for 24 points a row). The drawing is one image to screen readers, named
 * by its totals; its numbers are a table behind its "Show as table" button, in the person's time zone.
 */
export function Sparkline({ title, times, series }: SparklineProps) {
  const tableId = useId();
  const [showTable, setShowTable] = useState(false);
  const largest = Math.max(1, ...series.flatMap((one) => one.values));
  const zone = useMemo(() => timeZoneName(), []);
  const summary = `${title}: ${series
    .map(
      (one) => `${formatCount(one.values.reduce((sum, value) => sum + value, 0))} ${one.label.toLowerCase()}`,
    )
    .join(', ')}`;
  return (
    <div className="min-w-0">
      <div className="flex items-center gap-1">
        <svg
          role="img"
          aria-label={summary}
          width={WIDTH}
          height={HEIGHT}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="shrink-0 overflow-visible"
        >
          <line x1={1} x2={WIDTH - 1} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-line" />
          {series.map((one, index) => (
            <polyline
              key={one.label}
              points={pointsOf(one.values, largest)}
              fill="none"
              stroke={seriesColour(index)}
              strokeWidth={1.5}
              strokeDasharray={DASHES[index % DASHES.length]}
              strokeLinejoin="round"
              strokeLinecap="round"
            />
          ))}
        </svg>
        <button
          type="button"
          aria-expanded={showTable}
          aria-controls={showTable ? tableId : undefined}
          aria-label={`${showTable ? 'Hide' : 'Show'} ${title} as table`}
          title={showTable ? 'Hide table' : 'Show as table'}
          onClick={() => setShowTable((shown) => !shown)}
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-control text-brand hover:bg-brand-soft focus-visible:outline-2 focus-visible:outline-brand"
        >
          <Table2 aria-hidden="true" className="size-4" />
        </button>
      </div>
      {showTable && (
        <div id={tableId} className="mt-2 max-h-64 overflow-auto">
          <table className="w-full text-xs tabular-nums">
            <caption className="pb-1 text-left text-ink-muted">
              {title} (times in {zone})
            </caption>
            <thead>
              <tr>
                <th scope="col" className="pr-2 text-left font-medium">
                  Hour
                </th>
                {series.map((one) => (
                  <th key={one.label} scope="col" className="pl-2 text-right font-medium">
                    {one.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((time, index) => (
                <tr key={time} className="border-t border-line">
                  <th scope="row" className="pr-2 text-left font-normal whitespace-nowrap">
                    {formatBucket(time, 'hour')}
                  </th>
                  {series.map((one) => (
                    <td key={one.label} className="pl-2 text-right">
                      {formatCount(one.values[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** The series' legend, said once for many sparklines: each label in its colour and dash. */
export function SparklineLegend({ labels }: { labels: readonly string[] }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1">
      {labels.map((label, index) => (
        <span key={label} className="inline-flex items-center gap-1">
          <svg aria-hidden="true" width={16} height={6} className="shrink-0">
            <line
              x1={1}
              x2={15}
              y1={3}
              y2={3}
              stroke={seriesColour(index)}
              strokeWidth={2}
              strokeDasharray={DASHES[index % DASHES.length]}
              strokeLinecap="round"
            />
          </svg>
          {label}
        </span>
      ))}
    </span>
  );
}
