/**
 * Writes: adding and deleting an item, adding a DNS record, reordering 100 custom rules; the server's
 * own time beyond the sandbox's and the Cloudflare calls each made (the median of `--repeat` runs).
 */
import { performance } from 'node:perf_hooks';
import { banListItemEndpoints, dnsRecordEndpoints, firewallRuleEndpoints, pathOf } from '@guardian/contract';
import { fmt } from '../lib/report';
import { REPEAT } from '../options';
import { itemIdOf, median, pullLists, reasonOf, type Context } from './context';

interface WriteFigure {
  action: string;
  wallMs: number;
  sandboxMs: number;
  beyondMs: number;
  calls: number;
  callList: string[];
}

/** One write, timed: wall time at the client, the sandbox's own time for the calls it caused, the calls. */
async function timedWrite(ctx: Context, action: string, work: () => Promise<unknown>): Promise<WriteFigure> {
  const { timed } = ctx;
  timed.sandbox.control.resetCalls();
  timed.clear();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const calls = timed.sandbox.control.callLog();
  const sandboxMs = timed.calls.reduce((sum, call) => sum + call.durationMs, 0);
  return {
    action,
    wallMs,
    sandboxMs,
    beyondMs: wallMs - sandboxMs,
    calls: calls.length,
    callList: calls.map((call) => `${call.method} ${call.path.replace(/[0-9a-f]{32}/g, ':id')}`),
  };
}

/** `GET /a, GET /a, PUT /b` -> `2 x GET /a, PUT /b` (paths shortened to their last segments). */
function compactCalls(calls: string[]): string {
  const short = calls.map((call) => call.replace(/^(\w+) .*?((?:\/[^/]+){1,2})$/, '$1 ...$2'));
  const out: string[] = [];
  for (let i = 0; i < short.length;) {
    let j = i;
    while (j < short.length && short[j] === short[i]) j++;
    out.push(j - i > 1 ? `${j - i} x ${short[i]}` : short[i]!);
    i = j;
  }
  return out.join(', ');
}

export async function writesSection(ctx: Context): Promise<void> {
  const { report } = ctx;
  const summarize = (name: string, figures: WriteFigure[], expectedWrites?: number) => {
    const wall = median(figures.map((f) => f.wallMs));
    const own = median(figures.map((f) => f.sandboxMs));
    const beyond = median(figures.map((f) => f.beyondMs));
    const calls = median(figures.map((f) => f.calls));
    const fewest = Math.min(...figures.map((f) => f.calls));
    const most = Math.max(...figures.map((f) => f.calls));
    const writes = figures[0]!.callList.filter((call) => !call.startsWith('GET ')).length;
    report.data[`write:${name}`] = {
      wallMs: wall,
      sandboxMs: own,
      beyondMs: beyond,
      calls,
      writes,
      runs: figures,
    };
    report.row({
      section: 'Writes',
      figure: `${name}: server time beyond the sandbox's`,
      value: `${fmt.ms(beyond)} (wall ${fmt.ms(wall)}, sandbox ${fmt.ms(own)})`,
    });
    report.row({
      section: 'Writes',
      figure: `${name}: Cloudflare calls`,
      value: `${fewest === most ? fewest : `${fewest}-${most}`} (${writes} write${writes === 1 ? '' : 's'}): ${compactCalls(figures[0]!.callList)}`,
      note:
        expectedWrites !== undefined && writes !== expectedWrites
          ? `expected ${expectedWrites} write${expectedWrites === 1 ? '' : 's'}`
          : undefined,
    });
  };

  // Add and delete one item of the 10,000-item list.
  try {
    await pullLists(ctx);
    const key = ctx.listKeys.small!;
    const adds: WriteFigure[] = [];
    const deletes: WriteFigure[] = [];
    for (let i = 0; i <= REPEAT; i++) {
      const ip = `198.51.100.${i + 1}`;
      const add = await timedWrite(ctx, 'add item', () =>
        ctx.lists.request('POST', pathOf(banListItemEndpoints.add, { list_id: key }), {
          ip,
          comment: 'bench',
        }),
      );
      const itemId = await itemIdOf(ctx.lists, key, ip);
      const del = await timedWrite(ctx, 'delete item', () =>
        ctx.lists.request('DELETE', pathOf(banListItemEndpoints.remove, { list_id: key, item_id: itemId })),
      );
      if (i > 0) {
        // The first round warms the SDK client and the connection; it is not counted.
        adds.push(add);
        deletes.push(del);
      }
    }
    summarize('add one item', adds);
    summarize('delete one item', deletes);
  } catch (err) {
    report.missing('Writes', `items: ${reasonOf(err)}`);
  }

  // Add a DNS record.
  try {
    const zone = ctx.seeded.writeZone.id;
    const figures: WriteFigure[] = [];
    for (let i = 0; i <= REPEAT; i++) {
      const figure = await timedWrite(ctx, 'add DNS record', () =>
        ctx.zones.request('POST', pathOf(dnsRecordEndpoints.add, { zone_id: zone }), {
          type: 'A',
          name: `bench-${i}-${Date.now().toString(36)}`,
          content: '203.0.113.7',
          ttl: 1,
          proxied: false,
        }),
      );
      if (i > 0) figures.push(figure);
    }
    summarize('add a DNS record', figures, 1);
  } catch (err) {
    report.missing('Writes', `DNS: ${reasonOf(err)}`);
  }

  // Reorder 100 custom rules: the last rule dragged to the top, the whole list renumbered (spec: PUT).
  try {
    const zone = ctx.seeded.writeZone.id;
    const path = pathOf(firewallRuleEndpoints.list, { zone_id: zone });
    const figures: WriteFigure[] = [];
    for (let i = 0; i <= REPEAT; i++) {
      const current = await ctx.zones.request<unknown>('GET', path);
      const rules = (
        Array.isArray(current) ? current : ((current as { result?: unknown[] }).result ?? [])
      ) as {
        id: string;
        priority: number;
      }[];
      if (rules.length !== 100) throw new Error(`GET ${path} lists ${rules.length} rules, expected 100`);
      const sorted = [...rules].sort((a, b) => a.priority - b.priority);
      const moved = [sorted[sorted.length - 1]!, ...sorted.slice(0, -1)].map((rule, index) => ({
        ...rule,
        priority: index + 1,
      }));
      const figure = await timedWrite(ctx, 'reorder 100 rules', () => ctx.zones.request('PUT', path, moved));
      if (i > 0) figures.push(figure);
    }
    summarize('reorder 100 custom rules', figures, 1);
  } catch (err) {
    report.missing('Writes', `firewall rules: ${reasonOf(err)}`);
  }
}
