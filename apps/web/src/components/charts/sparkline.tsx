import { useMemo, useState } from 'react';
import { Table2 } from 'lucide-react';
import { Dialog } from '../ui/dialog';
import { formatBucket, formatCount, timeZoneName } from './format';
import { seriesColour } from './palette';

export interface SparklineSeries {
  /** What is counted, as a column of the table and in the summary ("Bans"). */
  label: string;
  /** One value a time, as `times`. */
  values: readonly number[];
}

interface SparklineProps {
  /** What the chart is of, for the drawing's summary and the table's title ("web-1, last 24 hours"). */
  title: string;
  /** The start of each hour (ISO), oldest first. */
  times: readonly string[];
  series: readonly SparklineSeries[];
}

const WIDTH = 120;
const HEIGHT = 28;

/**
 * A chart small enough for a table's row: one stacked bar an hour, the series in their colours from the
 * bottom up, the busiest hour full height. Inline SVG, no chart library: a list screen does not load
 * uPlot for 24 bars a row. The drawing is one image to screen readers, named by its totals; its numbers
 * are a table behind its "Show as table" button (a dialog, so the list's rows keep their height), in the
 * person's time zone.
 */
export function Sparkline({ title, times, series }: SparklineProps) {
  const [showTable, setShowTable] = useState(false);
  const zone = useMemo(() => timeZoneName(), []);
  const totals = times.map((_, hour) => series.reduce((sum, one) => sum + (one.values[hour] ?? 0), 0));
  const largest = Math.max(1, ...totals);
  const step = WIDTH / Math.max(1, times.length);
  const summary = `${title}: ${series
    .map(
      (one) => `${one.label.toLowerCase()} ${formatCount(one.values.reduce((sum, value) => sum + value, 0))}`,
    )
    .join(', ')}`;
  return (
    <div className="flex items-center gap-1">
      <svg role="img" aria-label={summary} width={WIDTH} height={HEIGHT} className="shrink-0">
        {times.map((time, hour) => {
          let top = HEIGHT - 1;
          return series.map((one, index) => {
            const value = one.values[hour] ?? 0;
            if (value === 0) return null;
            // At least a pixel, so a single ban in a busy day still shows.
            const height = Math.max(1, (value / largest) * (HEIGHT - 2));
            top -= height;
            return (
              <rect
                key={`${time}-${one.label}`}
                x={hour * step + 0.5}
                y={top}
                width={Math.max(1, step - 1)}
                height={height}
                fill={seriesColour(index)}
              />
            );
          });
        })}
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-line-strong" />
      </svg>
      <button
        type="button"
        aria-haspopup="dialog"
        aria-label={`Show ${title} as table`}
        title="Show as table"
        onClick={() => setShowTable(true)}
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-control text-brand hover:bg-brand-soft focus-visible:outline-2 focus-visible:outline-brand"
      >
        <Table2 aria-hidden="true" className="size-4" />
      </button>
      <Dialog
        open={showTable}
        onOpenChange={setShowTable}
        title={title}
        description={`Per hour, times in ${zone}.`}
      >
        <table className="w-full text-sm tabular-nums">
          <caption className="sr-only">
            {title} (times in {zone})
          </caption>
          <thead>
            <tr className="text-xs text-ink-muted">
              <th scope="col" className="py-1 pr-2 text-left font-semibold whitespace-nowrap">
                Hour
              </th>
              {series.map((one) => (
                <th
                  key={one.label}
                  scope="col"
                  className="py-1 pl-2 text-right font-semibold whitespace-nowrap"
                >
                  {one.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {times.map((time, hour) => (
              <tr key={time} className="border-t border-line">
                <th scope="row" className="py-1 pr-2 text-left font-normal whitespace-nowrap">
                  {formatBucket(time, 'hour')}
                </th>
                {series.map((one) => (
                  <td key={one.label} className="py-1 pl-2 text-right">
                    {formatCount(one.values[hour] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Dialog>
    </div>
  );
}

/** The series' legend, said once for many sparklines: each label beside its colour. */
export function SparklineLegend({ labels }: { labels: readonly string[] }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1">
      {labels.map((label, index) => (
        <span key={label} className="inline-flex items-center gap-1">
          <span
            aria-hidden="true"
            className="inline-block size-2.5 rounded-xs"
            style={{ backgroundColor: seriesColour(index) }}
          />
          {label}
        </span>
      ))}
    </span>
  );
}
