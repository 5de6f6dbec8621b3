// The part of autocannon's API the benchmark uses (autocannon ships no types; this avoids a
// @types package at the root for one call).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    timeout?: number;
    /** Asked in turn by each connection, over `url`'s origin and the top-level headers. */
    requests?: { method?: string; path?: string }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
