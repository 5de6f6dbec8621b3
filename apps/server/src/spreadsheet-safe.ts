/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such a cell is
 * written with a leading single quote, which makes it text. Tab and carriage return too (OWASP).
 * A cell of single quotes before one of these gets one more, so that `spreadsheetText` gives back
 * every cell as it was (an export imported again). The items export applies the same rule in SQL
 * (BanListItemsRepository.exportBatch).
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** `value` as a CSV cell a spreadsheet shows as text, never runs. */
export const spreadsheetSafe = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** A cell `spreadsheetSafe` wrote, as it was before: its added single quote taken off. */
export const spreadsheetText = (cell: string): string =>
  cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
