/** The benchmark's figures: one table on the terminal, the same figures as JSON under bench/results/. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProblem, type LoadResult } from './load';

export type Verdict = 'pass' | 'fail' | 'n/a';

export interface Row {
  section: string;
  figure: string;
  value: string;
  budget?: string;
  verdict?: Verdict;
  /** Why a figure is missing or a budget fails. */
  note?: string;
}

export interface Budget {
  name: string;
  value: number | null;
  limit: string;
  verdict: Verdict;
  note?: string;
}

export class Report {
  readonly rows: Row[] = [];
  readonly budgets: Budget[] = [];
  /** Figures by section, as measured (numbers in ms, bytes, requests/s). */
  readonly data: Record<string, unknown> = {};
  readonly problems: string[] = [];

  row(row: Row): void {
    this.rows.push(row);
  }

  /** A budget line: `ok(value)` decides pass or fail; a null value is n/a with a note. */
  budget(
    section: string,
    name: string,
    value: number | null,
    shown: string,
    limit: string,
    ok: (value: number) => boolean,
    note?: string,
  ): Verdict {
    const verdict: Verdict = value === null || Number.isNaN(value) ? 'n/a' : ok(value) ? 'pass' : 'fail';
    this.budgets.push({ name: `${section}: ${name}`, value, limit, verdict, note });
    this.row({ section, figure: name, value: shown, budget: limit, verdict, note });
    return verdict;
  }

  /** A load's p99 held under `limitMs`: a run with failed or no answers fails whatever its latency. */
  p99Budget(section: string, name: string, result: LoadResult, limitMs: number, shown: string): Verdict {
    const problem = loadProblem(result);
    const judged = problem ? Number.POSITIVE_INFINITY : result.p99;
    return this.budget(section, name, judged, shown, `< ${limitMs} ms`, (v) => v < limitMs, problem);
  }

  /** A section that could not run: every budget it holds becomes n/a with the reason. */
  missing(section: string, reason: string, budgets: { name: string; limit: string }[] = []): void {
    this.problems.push(`${section}: ${reason}`);
    if (budgets.length === 0) this.row({ section, figure: '(not measured)', value: '-', note: reason });
    for (const { name, limit } of budgets) {
      this.budgets.push({ name: `${section}: ${name}`, value: null, limit, verdict: 'n/a', note: reason });
      this.row({ section, figure: name, value: '-', budget: limit, verdict: 'n/a', note: reason });
    }
  }

  print(): string {
    const header = ['Section', 'Figure', 'Value', 'Budget', 'Result'];
    const cells = this.rows.map((row) => [
      row.section,
      row.figure,
      row.value,
      row.budget ?? '',
      row.verdict
        ? row.verdict.toUpperCase() + (row.note && row.verdict !== 'pass' ? ` (${row.note})` : '')
        : (row.note ?? ''),
    ]);
    const widths = header.map((title, i) =>
      Math.min(i === 4 ? 80 : 60, Math.max(title.length, ...cells.map((line) => line[i]!.length))),
    );
    const line = (values: string[]) =>
      '| ' + values.map((value, i) => (i === 4 ? value : value.padEnd(widths[i]!))).join(' | ') + ' |';
    const out = [line(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|'];
    let lastSection = '';
    for (const values of cells) {
      out.push(line([values[0] === lastSection ? '' : values[0]!, ...values.slice(1)]));
      lastSection = values[0]!;
    }
    const counts = { pass: 0, fail: 0, 'n/a': 0 };
    for (const budget of this.budgets) counts[budget.verdict]++;
    out.push('', `Budgets: ${counts.pass} pass, ${counts.fail} fail, ${counts['n/a']} not measured.`);
    return out.join('\n');
  }

  /** Writes bench-<timestamp>[-<tag>].json, and latest.json unless tagged (a what-if is not a result). */
  write(dir: string, meta: Record<string, unknown>, tag?: string): { file: string; latest: string | null } {
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const json = JSON.stringify(
      { ...meta, budgets: this.budgets, table: this.rows, figures: this.data, problems: this.problems },
      null,
      2,
    );
    const file = join(dir, `bench-${stamp}${tag ? `-${tag}` : ''}.json`);
    writeFileSync(file, json + '\n');
    if (tag) return { file, latest: null };
    const latest = join(dir, 'latest.json');
    writeFileSync(latest, json + '\n');
    return { file, latest };
  }
}

/** bench/results/soak.json from `npm run test:load`, when present: its p99 (ms), wherever it keeps it. */
export function readSoak(dir: string): { p99: number; file: string; date?: string } | null {
  const file = join(dir, 'soak.json');
  if (!existsSync(file)) return null;
  try {
    const soak = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const find = (value: unknown): number | undefined => {
      if (!value || typeof value !== 'object') return undefined;
      const record = value as Record<string, unknown>;
      if (typeof record.p99Ms === 'number') return record.p99Ms;
      if (typeof record.p99 === 'number') return record.p99;
      for (const child of Object.values(record)) {
        const found = find(child);
        if (found !== undefined) return found;
      }
      return undefined;
    };
    const p99 = find(soak);
    const date = [soak.date, soak.startedAt].find((value): value is string => typeof value === 'string');
    return p99 === undefined ? null : { p99, file, date };
  } catch {
    return null;
  }
}

export const fmt = {
  ms: (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`,
  rps: (value: number) => `${Math.round(value).toLocaleString('en-US')} req/s`,
  kb: (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`,
  int: (value: number) => Math.round(value).toLocaleString('en-US'),
  ratio: (value: number) => value.toFixed(2),
};
