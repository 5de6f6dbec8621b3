/** Numbers and times as the charts and their tables show them: in the person's locale and time zone. */

const whole = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const share = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const hourly = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const daily = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export const formatCount = (value: number) => whole.format(value);

/** A share of 0 to 1 as a percentage ("42.5%"). */
export const formatShare = (value: number) => share.format(value);

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in 1,000s, as Cloudflare's dashboard counts bandwidth ("1.2 GB"). */
export function formatBytes(value: number): string {
  let unit = 0;
  let scaled = value;
  while (scaled >= 1000 && unit < BYTE_UNITS.length - 1) {
    scaled /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? scaled : scaled.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** A series' bucket: hours with their time, days with their date, in the person's time zone. */
export type Bucket = 'hour' | 'day';

export function formatBucket(time: string | number | Date, bucket: Bucket): string {
  const date = time instanceof Date ? time : new Date(time);
  return (bucket === 'hour' ? hourly : daily).format(date);
}

/** The person's time zone, named under a chart ("Times in Europe/Istanbul"). */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A duration in milliseconds ("182 ms"), as Cloudflare's timings are given. */
export const formatMilliseconds = (value: number) => `${whole.format(value)} ms`;
