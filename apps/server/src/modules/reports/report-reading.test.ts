import { describe, expect, it } from 'vitest';
import { REPORT_TOP_MAX } from '@guardian/contract';
import { TopHostsAndPaths } from './report-reading';

const hostRow = (host: string, count: number) => ({ count, dimensions: { clientRequestHTTPHost: host } });
const pathRow = (path: string, count: number) => ({ count, dimensions: { clientRequestPath: path } });

describe('TopHostsAndPaths', () => {
  it("sums each host and path over the zones' top groups, most first, a tie by value", () => {
    const top = new TopHostsAndPaths();
    top.add({
      topHosts: [hostRow('shop.example', 30), hostRow('blog.example', 10)],
      topPaths: [pathRow('/', 25), pathRow('/cart', 15)],
    });
    top.add({ topHosts: [hostRow('blog.example', 25)], topPaths: [pathRow('/cart', 10), pathRow('/a', 5)] });
    expect(top.rows()).toEqual({
      top_hosts: [
        { value: 'blog.example', count: 35 },
        { value: 'shop.example', count: 30 },
      ],
      top_paths: [
        { value: '/', count: 25 },
        { value: '/cart', count: 25 },
        { value: '/a', count: 5 },
      ],
    });
  });

  it('keeps the contract bounds: REPORT_TOP_MAX rows, a path cut at 2,048 characters', () => {
    const top = new TopHostsAndPaths();
    const long = `/${'x'.repeat(3000)}`;
    top.add({
      topHosts: Array.from({ length: REPORT_TOP_MAX + 5 }, (_, i) => hostRow(`h${i}.example`, 100 + i)),
      topPaths: [pathRow(long, 1)],
    });
    const rows = top.rows();
    expect(rows.top_hosts).toHaveLength(REPORT_TOP_MAX);
    expect(rows.top_hosts[0]).toEqual({
      value: `h${REPORT_TOP_MAX + 4}.example`,
      count: REPORT_TOP_MAX + 104,
    });
    expect(rows.top_paths[0]!.value).toHaveLength(2048);
  });
});
