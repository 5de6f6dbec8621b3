import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../ui/table';
import { ChartFrame } from './chart-frame';
import { formatBucket, formatCount, timeZoneName, type Bucket } from './format';
import { seriesColour } from './palette';

export interface TimeSeries {
  label: string;
  /** One value per time of the chart; null where there is none (a gap, "—" in the table). */
  values: (number | null)[];
}

interface TimeSeriesChartProps {
  title: string;
  /** ISO times of the buckets, oldest first. */
  times: string[];
  series: TimeSeries[];
  bucket: Bucket;
  /** How a value reads (bytes, counts); counts by default. */
  format?: (value: number) => string;
  /** Said when every value is 0 or there is no time ("No events in this range"). */
  empty: string;
  /** What is counted, under the title. */
  description?: string;
  /** Bars stacked per bucket instead of lines (a whole split by kind). */
  stacked?: boolean;
  /**
   * Where each time's details are (the Activity table for that hour): the table's times link there, and
   * a click on the drawing opens the time under the pointer.
   */
  linkOf?: (time: string, index: number) => string;
}

const HEIGHT = 220;

/** Whether this browser can draw on a canvas (a test's DOM cannot: the table is all it has). */
function canvasDraws(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

/**
 * Values over time: uPlot draws lines (or stacked bars) on a canvas, in the person's time zone, with a
 * legend; the numbers are a table with a row per time (ChartFrame's "Show as table").
 */
export function TimeSeriesChart({
  title,
  times,
  series,
  bucket,
  format = formatCount,
  empty,
  description,
  stacked = false,
  linkOf,
}: TimeSeriesChartProps) {
  const nothing = times.length === 0 || series.every((one) => one.values.every((value) => !value));
  const navigate = useNavigate();
  const zone = useMemo(() => timeZoneName(), []);
  const table = (
    <Table caption={title}>
      <TableHead>
        <TableHeaderCell>Time</TableHeaderCell>
        {series.map((one) => (
          <TableHeaderCell key={one.label} className="text-right">
            {one.label}
          </TableHeaderCell>
        ))}
      </TableHead>
      <TableBody>
        {times.map((time, index) => (
          <TableRow key={time}>
            <TableCell label="Time" className="whitespace-nowrap">
              {linkOf ? (
                <Link to={linkOf(time, index)} className="font-medium text-brand hover:underline">
                  <time dateTime={time}>{formatBucket(time, bucket)}</time>
                </Link>
              ) : (
                <time dateTime={time}>{formatBucket(time, bucket)}</time>
              )}
            </TableCell>
            {series.map((one) => {
              const value = one.values[index];
              return (
                <TableCell key={one.label} label={one.label} className="text-right tabular-nums">
                  {value == null ? '—' : format(value)}
                </TableCell>
              );
            })}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  return (
    <ChartFrame
      title={title}
      description={
        <>
          {description ? `${description} · ` : ''}
          {bucket === 'hour' ? 'Per hour' : 'Per day'}, times in {zone}
        </>
      }
      empty={nothing ? empty : null}
      table={table}
    >
      <Plot
        times={times}
        series={series}
        format={format}
        stacked={stacked}
        bucket={bucket}
        onPick={linkOf ? (index) => void navigate(linkOf(times[index]!, index)) : undefined}
      />
      <ul aria-hidden="true" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-muted">
        {series.map((one, index) => (
          <li key={one.label} className="inline-flex items-center gap-1.5">
            <span className="size-2.5 rounded-sm" style={{ backgroundColor: seriesColour(index) }} />
            {one.label}
          </li>
        ))}
      </ul>
    </ChartFrame>
  );
}

interface PlotProps {
  times: string[];
  series: TimeSeries[];
  format: (value: number) => string;
  stacked: boolean;
  bucket: Bucket;
  /** A click on the drawing: the index of the time under the pointer. */
  onPick?: (index: number) => void;
}

/** The canvas, sized to its card's width and redrawn when it changes. */
function Plot({ times, series, format, stacked, bucket, onPick }: PlotProps) {
  const holder = useRef<HTMLDivElement>(null);
  // The latest handler, read at the click: a new one does not redraw the chart.
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  });
  const clickable = onPick !== undefined;
  useEffect(() => {
    const element = holder.current;
    if (!element || !canvasDraws()) return;
    const x = times.map((time) => new Date(time).getTime() / 1000);
    // Stacked: each series drawn as the sum of itself and those after it, largest first; an empty
    // stack is no bar (null), not a flat one drawn along the axis.
    const drawn = stacked
      ? series.map((_, index) =>
          x.map((__, at) => series.slice(index).reduce((sum, one) => sum + (one.values[at] ?? 0), 0) || null),
        )
      : series.map((one) => one.values);
    const bars = uPlot.paths.bars?.({ size: [0.8, 24] });
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { points: { show: !stacked } },
        // Stacked bars stand on 0, whatever the smallest stack.
        scales: {
          x: { time: true },
          ...(stacked ? { y: { range: (_u, _min, max) => uPlot.rangeNum(0, max || 1, 0.1, true) } } : {}),
        },
        axes: [
          { stroke: '#475569', grid: { stroke: '#e2e8f0' }, ticks: { stroke: '#e2e8f0' } },
          {
            stroke: '#475569',
            grid: { stroke: '#e2e8f0' },
            ticks: { stroke: '#e2e8f0' },
            size: 64,
            values: (_, ticks) => ticks.map(format),
          },
        ],
        series: [
          { value: (_, value) => (value == null ? '' : formatBucket(value * 1000, bucket)) },
          ...series.map((one, index) => ({
            label: one.label,
            stroke: seriesColour(index),
            width: 2,
            ...(stacked ? { fill: seriesColour(index), paths: bars } : {}),
            points: { show: false },
            value: (_: uPlot, value: number | null) => (value == null ? '' : format(value)),
          })),
        ],
      },
      [x, ...drawn],
      element,
    );
    const open = () => {
      const index = plot.cursor.idx;
      if (index != null) pick.current?.(index);
    };
    if (clickable) {
      plot.over.style.cursor = 'pointer';
      plot.over.addEventListener('click', open);
    }
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() =>
            plot.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }),
          );
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      plot.over.removeEventListener('click', open);
      plot.destroy();
    };
  }, [times, series, format, stacked, bucket, clickable]);
  return (
    <div ref={holder} aria-hidden="true" className="w-full overflow-hidden" style={{ minHeight: HEIGHT }} />
  );
}
