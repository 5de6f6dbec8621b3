/**
 * Every value cell of a rendered table names its column as the header does: on a phone the label is
 * all a card shows of the header (components/ui/table.tsx). Run after each web test, on what it left
 * rendered, so every screen's table is checked by the tests that already render it.
 */
export function expectTableLabelsMatchHeaders(root: ParentNode = document) {
  for (const table of root.querySelectorAll('table')) {
    const headers = Array.from(table.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? '');
    for (const row of table.querySelectorAll<HTMLTableRowElement>('tbody tr')) {
      const cells = Array.from(row.cells);
      // The one loading or empty message row spans every column.
      if (cells.length === 1 && cells[0]!.colSpan > 1) continue;
      cells.forEach((cell, index) => {
        const label = cell.dataset.label;
        if (label !== headers[index]) {
          throw new Error(
            `Cell ${index + 1} of a row of the table "${table.caption?.textContent ?? ''}" is labelled ` +
              `${JSON.stringify(label)}, its column's header is ${JSON.stringify(headers[index])}.`,
          );
        }
      });
    }
  }
}
