/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such a cell is
 * written with a leading single quote, which makes it text. Tab and carriage return too (OWASP).
 * The items export applies the same rule in SQL (BanListItemsRepository.exportBatch).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** `value` as a CSV cell a spreadsheet shows as text, never runs. */
export const spreadsheetSafe = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);
