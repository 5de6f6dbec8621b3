/**
 * The analytics datasets are answered from batches rather than stored rows: a batch is `count` alike
 * requests or security events spread evenly over [start, start + spanMs), event i at
 * start + floor(i * spanMs / count). Counting, filtering and grouping work on whole batches, so a month
 * of generated traffic for ten zones costs a few tens of thousands of batches, never millions of rows.
 */
export interface Batch {
  zoneTag: string;
  start: number;
  /** 0 for a single event (`count` 1) at `start`. */
  spanMs: number;
  count: number;
  /** Dimension values shared by every event of the batch. */
  fields: Readonly<Record<string, string | number>>;
  /** Totals over the whole batch of the summed or averaged metrics (bytes, visits, milliseconds). */
  totals: Readonly<Record<string, number>>;
  /** Distinguishes the batch's events from others' (ray names). */
  key: number;
}

export const eventTime = (batch: Batch, index: number): number =>
  batch.start + Math.floor((index * batch.spanMs) / batch.count);

/** The first event index at or after `time` (binary search: event times rise with the index). */
function firstAtOrAfter(batch: Batch, time: number): number {
  let low = 0;
  let high = batch.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (eventTime(batch, middle) < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Indexes [from, to) of the batch's events inside [lo, hi] (inclusive, milliseconds). */
export function eventsWithin(batch: Batch, lo: number, hi: number): { from: number; to: number } {
  const from = firstAtOrAfter(batch, lo);
  const to = hi === Number.POSITIVE_INFINITY ? batch.count : firstAtOrAfter(batch, hi + 1);
  return { from, to: Math.max(from, to) };
}

/** FNV-1a: a stable 32-bit hash of a string, the seed of everything generated for a zone. */
export function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}
