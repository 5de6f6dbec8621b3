import { screen, within } from '@testing-library/react';

/** The text of one column of the table's rows, in order. */
export function tableColumn(index: number): string[] {
  return screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[index]!.textContent ?? '');
}

/** The texts of the table's column headers, in order. */
export function columnHeaders(): (string | null)[] {
  return screen.getAllByRole('columnheader').map((header) => header.textContent);
}
