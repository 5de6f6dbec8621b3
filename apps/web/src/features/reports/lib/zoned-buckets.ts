/**
 * The buckets of a series counted in a time zone (the Activity report's: hours and days starting at the
 * person's own midnights, as the server's `date_trunc(..., tz)` counts them), as ISO instants.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A bound on the buckets drawn, whatever the answer says (31 days of hours). */
const BUCKETS_MAX = 31 * 24;

/** One formatter at a time: the person has one time zone. */
let cached: { zone: string; format: Intl.DateTimeFormat } | null = null;

function wallClockOf(zone: string): Intl.DateTimeFormat {
  if (cached?.zone !== zone)
    cached = {
      zone,
      format: new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
    };
  return cached.format;
}

/** How far `zone`'s clocks are ahead of UTC at `at` (ms; negative west of Greenwich). */
export function zoneOffsetMs(at: number, zone: string): number {
  const parts = wallClockOf(zone).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(at / 1000) * 1000;
}

/** The start of the zone's hour or day holding `at`. */
export function zonedFloor(at: number, bucket: 'hour' | 'day', zone: string): number {
  const step = bucket === 'hour' ? HOUR_MS : DAY_MS;
  const offset = zoneOffsetMs(at, zone);
  const local = at + offset;
  const localStart = local - (((local % step) + step) % step);
  // Across a clock change the start's offset is not `at`'s: measured again at the start.
  return localStart - zoneOffsetMs(localStart - offset, zone);
}

/**
 * Every bucket from `since` to `until`, oldest first, in `zone`, with any time the answer has that the
 * steps missed: a bucket without changes is a 0 on the chart, and no counted bucket is dropped.
 */
export function zonedBucketTimes(
  range: { since: string; until: string; bucket: 'hour' | 'day' },
  zone: string,
  answered: readonly string[] = [],
): string[] {
  const since = Date.parse(range.since);
  const until = Date.parse(range.until);
  const times = new Set<number>();
  if (!Number.isNaN(since) && !Number.isNaN(until)) {
    // A day is 23 to 25 hours long: 26 hours on from a midnight is always in the next day.
    const stride = range.bucket === 'hour' ? HOUR_MS : DAY_MS + 2 * HOUR_MS;
    for (
      let at = zonedFloor(since, range.bucket, zone);
      at <= until && times.size < BUCKETS_MAX;
      at = zonedFloor(at + stride, range.bucket, zone)
    )
      times.add(at);
  }
  for (const time of answered.slice(0, BUCKETS_MAX)) {
    const at = Date.parse(time);
    if (!Number.isNaN(at)) times.add(at);
  }
  return [...times].sort((a, b) => a - b).map((at) => new Date(at).toISOString());
}
