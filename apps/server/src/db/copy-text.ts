/** A value of a COPY row: text, a number, or null (COPY's \N). */
export type CopyValue = string | number | null;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function field(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  // Most values hold none of these: the test is cheaper than a replace that finds nothing.
  return SPECIAL.test(value) ? value.replace(SPECIALS, (char) => ESCAPED[char]!) : value;
}

/**
 * Rows in COPY's text format (PostgreSQL's default for COPY FROM): fields split by a tab, rows ended
 * by a newline, NULL as \N, and a backslash, tab, newline or carriage return inside a value escaped
 * with a backslash, so every value arrives exactly as given.
 */
export function copyRows(rows: Iterable<readonly CopyValue[]>): string {
  let text = '';
  for (const row of rows) text += row.map(field).join('\t') + '\n';
  return text;
}
