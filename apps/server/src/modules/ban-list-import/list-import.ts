/**
 * Reading an import (issue 15): pasted or uploaded text, one value a line (a `# comment` after it is
 * the item's comment), or CSV. A CSV with a header line is read by the header's names (the export's
 * `value,comment,expires,added_by,added_at`, an older export's `ip,comment,created_on`, or any order
 * of them: BAN_LIST_CSV_COLUMN_NAMES); one without is read `value,comment,expires`. Every line is
 * checked and normalised by the Add dialog's rules (`parseItemValue`: IPv6 compressed and lower-case,
 * host bits cleared, hostnames lower-case, `AS13335` as 13335), repeats in the file are counted once,
 * and every line that is not an item is kept with its number and the reason.
 *
 * CSV goes through csv-parse (quoted fields holding commas or quotes, CRLF, a byte order mark, a broken
 * quote reported on its own line), not a split on commas.
 */
import {
  BAN_LIST_CSV_COLUMN_NAMES,
  BAN_LIST_IMPORT_INVALID_LISTED_MAX,
  BAN_LIST_ITEM_COMMENT_MAX,
  type BanListCsvColumn,
  type BanListKind,
} from '@guardian/contract';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { AppError } from '../../app-error';
import { spreadsheetText } from '../../spreadsheet-safe';
import { parseItemValue, type ItemValue } from '../ban-list-mirror';

/** An invalid line is shown cut to this many characters. */
const LINE_SHOWN_MAX = 120;
/** An expiry is at most this far ahead (the Add dialog's bound). */
const EXPIRY_MAX_MS = 5 * 366 * 86_400_000;
const PRESET_MS: Record<string, number> = {
  '1h': 3_600_000,
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};
const DATE_TIME = z.iso.datetime({ offset: true });
const DATE = z.iso.date();

export type ImportFormat = 'text' | 'csv';

/** A line that became an item. */
export interface ImportedItem {
  line: number;
  item: ItemValue;
  comment: string;
  /** From the CSV's third column: null for never, undefined for the import's own choice. */
  expiresAt?: Date | null;
}

export interface InvalidLine {
  line: number;
  text: string;
  reason: string;
}

export interface ParsedImport {
  format: ImportFormat;
  /** Lines that are neither blank nor a comment (nor the CSV header). */
  lines: number;
  /** Distinct items, in the order of the file (the first line of each). */
  items: ImportedItem[];
  /** Lines whose item an earlier line already has. */
  repeated: number;
  invalid: InvalidLine[];
}

/**
 * A single IPv4 address in decimal without leading zeros: already the canonical text `parseItemValue`
 * gives it (a test compares the two), read without its checks, as an import's lines mostly are.
 */
const PLAIN_IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const plainIpv4 = (value: string): ItemValue => ({ value, key: value, search: value, input: { ip: value } });

const shown = (text: string) => (text.length > LINE_SHOWN_MAX ? `${text.slice(0, LINE_SHOWN_MAX)}…` : text);
/**
 * A reason with the value it quotes cut as the line is: parseItemValue's and csv-parse's reasons quote
 * the value (or a redirect's target) whole. From the first quote to the last, so a value holding
 * quotes is cut whole too.
 */
const shownReason = (reason: string) =>
  reason.replace(/"(.*)"/s, (_quote, value: string) => `"${shown(value)}"`);

/**
 * The CSV's third column: empty (the import's choice), `never`, 1h, 1d, 7d, 30d (from now), a date
 * (that day, 00:00 UTC) or a date and time with its offset; in the future and at most 5 years ahead.
 */
export function parseExpiryCell(text: string, now: Date): Date | null | undefined | string {
  const cell = text.trim().toLowerCase();
  if (cell === '') return undefined;
  if (cell === 'never') return null;
  const preset = PRESET_MS[cell];
  if (preset !== undefined) return new Date(now.getTime() + preset);
  let at: number;
  if (DATE.safeParse(cell).success) at = Date.parse(`${cell}T00:00:00Z`);
  else if (DATE_TIME.safeParse(text.trim()).success) at = Date.parse(text.trim());
  else
    return `"${shown(text.trim())}" is not an expiry: use never, 1h, 1d, 7d, 30d, a date (2027-01-31) or a date and time with its offset (2027-01-31T12:00:00Z).`;
  if (at <= now.getTime()) return `The expiry ${shown(text.trim())} has already passed.`;
  if (at > now.getTime() + EXPIRY_MAX_MS)
    return `The expiry ${shown(text.trim())} is more than 5 years ahead.`;
  return new Date(at);
}

/** Lines looked at to tell CSV from text. */
const DETECT_LINES = 20;

/** Whether the text is CSV: one of its first lines that are neither blank nor a comment holds a comma. */
export function detectFormat(text: string): ImportFormat {
  let looked = 0;
  for (const raw of text.split('\n', 1_000)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.includes(',')) return 'csv';
    if (++looked >= DETECT_LINES) break;
  }
  return 'text';
}

/** A line's count of the whole text: refused past BAN_LIST_IMPORT_LINES_MAX before any of it is read. */
export function countLines(text: string): number {
  let lines = text.length > 0 && !text.endsWith('\n') ? 1 : 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** Collects the items and invalid lines of an import as its lines are read. */
class Collector {
  readonly items: ImportedItem[] = [];
  readonly invalid: InvalidLine[] = [];
  invalidCount = 0;
  lines = 0;
  repeated = 0;
  private readonly seen = new Set<string>();

  constructor(private readonly kind: BanListKind) {}

  reject(line: number, text: string, reason: string): void {
    this.invalidCount++;
    if (this.invalid.length < BAN_LIST_IMPORT_INVALID_LISTED_MAX)
      this.invalid.push({ line, text: shown(text), reason: shownReason(reason) });
  }

  /** A value line: checked for the list's kind, counted once. */
  take(line: number, text: string, value: string, comment: string, expiresAt?: Date | null): void {
    const item =
      this.kind === 'ip' && PLAIN_IPV4.test(value) ? plainIpv4(value) : parseItemValue(this.kind, value);
    if (typeof item === 'string') return this.reject(line, text, item);
    if (comment.length > BAN_LIST_ITEM_COMMENT_MAX)
      return this.reject(line, text, `The comment is longer than ${BAN_LIST_ITEM_COMMENT_MAX} characters.`);
    if (this.seen.has(item.key)) {
      this.repeated++;
      return;
    }
    this.seen.add(item.key);
    this.items.push(expiresAt === undefined ? { line, item, comment } : { line, item, comment, expiresAt });
  }
}

/**
 * A `#` starts a comment: a whole line's, or one after a value and a space (`1.2.3.4 # scanner`),
 * which is the item's comment. The value, and the comment after it ('' when none).
 */
function splitInlineComment(text: string): [value: string, comment: string] {
  const hash = text.search(/(^|\s)#/);
  return hash < 0 ? [text.trim(), ''] : [text.slice(0, hash).trim(), text.slice(hash).trim().slice(1).trim()];
}

/** One value a line, a `# comment` after it its comment; `#` lines are comments. */
function readText(text: string, collector: Collector): void {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    const [value, comment] = splitInlineComment(raw);
    if (value === '') continue;
    collector.lines++;
    collector.take(index + 1, raw.trim(), value, comment);
  }
}

/** A CSV record and the line it starts on. */
interface CsvRow {
  line: number;
  cells: string[];
}

/**
 * The records of CSV text, by csv-parse. Text without a quote character holds no quoted field, so each
 * of its lines is one record of comma-separated cells (RFC 4180): read so directly, as csv-parse takes
 * 0.5 to 1.5 s for 100,000 lines with line numbers (a test compares the two on such text).
 */
export function csvRows(text: string, rejected: (line: number, reason: string) => void): CsvRow[] {
  const rows: CsvRow[] = [];
  if (!text.includes('"')) {
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!.replace(/\r$/, '');
      if (line.trim() === '' || line.startsWith('#')) continue;
      rows.push({ line: index + 1, cells: line.split(',') });
    }
    return rows;
  }
  // As bytes: csv-parse 7 reads a long string many times slower (6 s against 0.3 s for 100,000 lines).
  parse(Buffer.from(text, 'utf8'), {
    comment: '#',
    comment_no_infix: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (cells: string[], context: { lines: number }) => {
      // A record's context counts the lines read so far: a quoted field may span lines.
      rows.push({ line: context.lines - (cells.join(',').split('\n').length - 1), cells });
      return null;
    },
    on_skip: (error) => {
      if (error) rejected(Number(error.lines), `This line is not valid CSV: ${error.message}`);
    },
  });
  return rows;
}

/** A header's name as BAN_LIST_CSV_COLUMN_NAMES has it: `Added by` and `added-by` are `added_by`. */
const columnName = (cell: string) =>
  cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Whether a CSV's first record is a header: one of its cells names the value column. */
const isHeader = (cells: readonly string[]) =>
  cells.some((cell) => BAN_LIST_CSV_COLUMN_NAMES[columnName(cell)] === 'value');

/** The CSV's columns from its header, by name: refused (400) when a name is unknown, repeated or the value's is missing. */
function columnsOf(header: readonly string[]): (BanListCsvColumn | null)[] {
  const columns = header.map((cell) =>
    cell.trim() === '' ? null : BAN_LIST_CSV_COLUMN_NAMES[columnName(cell)],
  );
  const known = `Name the columns value (or ip), comment, expires, added_by and added_at, in any order; added_by, added_at and created_on are not read.`;
  const unknown = header
    .filter((cell, at) => columns[at] === undefined)
    .map((cell) => `"${shown(cell.trim())}"`);
  if (unknown.length > 0)
    throw new AppError(
      'BAD_REQUEST',
      `The CSV header names ${unknown.length === 1 ? 'a column' : 'columns'} Guardian does not read: ${unknown.slice(0, 5).join(', ')}. ${known}`,
    );
  for (const column of ['value', 'comment', 'expires'] as const) {
    if (columns.filter((named) => named === column).length > 1)
      throw new AppError('BAD_REQUEST', `The CSV header names the ${column} column twice. ${known}`);
  }
  return columns as (BanListCsvColumn | null)[];
}

/** Without a header: value, comment, expires. */
const POSITIONAL: (BanListCsvColumn | null)[] = ['value', 'comment', 'expires'];

/**
 * CSV, read by its header's names when its first record is a header, else `value,comment,expires`;
 * `#` lines are comments, and a `# comment` after the value is its comment (beside the comment cell's).
 * A cell the export made text for a spreadsheet (a leading `'`) is read as it was.
 */
function readCsv(text: string, collector: Collector, now: Date): void {
  const rawLines = text.split('\n');
  const rawLineAt = (line: number) => (rawLines[line - 1] ?? '').trim();
  const rows = csvRows(text, (line, reason) => {
    collector.lines++;
    collector.reject(line, rawLineAt(line), reason);
  });
  const header = rows[0] && isHeader(rows[0].cells) ? rows[0].cells : undefined;
  const columns = header ? columnsOf(header) : POSITIONAL;
  const tooMany = header
    ? 'A CSV line has a cell in a column the header does not name.'
    : 'A CSV line has at most three columns: value, comment, expires.';
  for (const { line, cells } of header ? rows.slice(1) : rows) {
    const trimmed = cells.map((cell) => spreadsheetText(cell.trim()));
    if (trimmed.every((cell) => cell === '')) continue;
    const raw = rawLineAt(line) || cells.join(',');
    collector.lines++;
    const cell: Partial<Record<BanListCsvColumn, string>> = {};
    let stray = false;
    for (const [at, content] of trimmed.entries()) {
      const column = columns[at];
      if (column) cell[column] = content;
      else if (content !== '') stray = true;
    }
    if (stray) {
      collector.reject(line, raw, tooMany);
      continue;
    }
    const expiresAt = parseExpiryCell(cell.expires ?? '', now);
    if (typeof expiresAt === 'string') {
      collector.reject(line, raw, expiresAt);
      continue;
    }
    const [value, inline] = splitInlineComment(cell.value ?? '');
    const comment = [cell.comment ?? '', inline].filter(Boolean).join(' ');
    collector.take(line, raw, value, comment, expiresAt);
  }
}

/** Reads an import's text for a list of `kind` (the caller bounds its lines: `countLines`). */
export function parseImport(
  kind: BanListKind,
  text: string,
  format: ImportFormat | 'auto' = 'auto',
  now = new Date(),
): ParsedImport & { invalidCount: number } {
  const chosen = format === 'auto' ? detectFormat(text) : format;
  const collector = new Collector(kind);
  const body = text.replace(/^\uFEFF/, '');
  if (chosen === 'csv') readCsv(body, collector, now);
  else readText(body, collector);
  collector.invalid.sort((a, b) => a.line - b.line);
  return {
    format: chosen,
    lines: collector.lines,
    items: collector.items,
    repeated: collector.repeated,
    invalid: collector.invalid,
    invalidCount: collector.invalidCount,
  };
}
