import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeleteButton } from './button';
import {
  Table,
  TableActionsCell,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
  TableRows,
} from './table';

/** Makes matchMedia answer as a screen of `width` px would (jsdom has no layout of its own). */
function screenWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const match = /\((?:width < |max-width: )([\d.]+)rem\)|\(min-width: ([\d.]+)rem\)/.exec(query);
    const below = match?.[1] ? width < Number(match[1]) * 16 : null;
    const above = match?.[2] ? width >= Number(match[2]) * 16 : null;
    return {
      matches: below ?? above ?? false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    } as unknown as MediaQueryList;
  });
}

/** Lays the table out `tableWidth` px wide in a frame of `frameWidth` px. */
function layout(tableWidth: number, frameWidth: number) {
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(tableWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(frameWidth);
}

const onDelete = vi.fn();

function Zones({ domains }: { domains: string[] }) {
  return (
    <Table caption="Zones">
      <TableHead>
        <TableHeaderCell>Domain</TableHeaderCell>
        <TableHeaderCell>Delete</TableHeaderCell>
      </TableHead>
      <TableBody>
        {domains.map((domain) => (
          <TableRow key={domain}>
            <TableCell label="Domain">{domain}</TableCell>
            <TableActionsCell label="Delete">
              <DeleteButton label={`Delete ${domain}`} onClick={() => onDelete(domain)} />
            </TableActionsCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const frameOf = () => screen.getByRole('table', { name: 'Zones' }).parentElement!;

afterEach(() => onDelete.mockReset());

describe('Table', () => {
  it('is a table with its header row where the columns fit', () => {
    screenWidth(1024);
    layout(900, 958);
    render(<Zones domains={['alpha.com']} />);
    expect(frameOf()).toHaveAttribute('data-layout', 'table');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Domain', 'Delete']);
    const [, row] = screen.getAllByRole('row');
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['alpha.com', '']);
  });

  it('shows the rows as cards on a phone, each cell labelled and the actions at the foot', () => {
    screenWidth(390);
    layout(300, 358);
    render(<Zones domains={['alpha.com', 'bravo.com']} />);
    expect(frameOf()).toHaveAttribute('data-layout', 'cards');
    // Still a table for screen readers, with the same rows and cells.
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    for (const [index, domain] of ['alpha.com', 'bravo.com'].entries()) {
      const [value, actions] = within(rows[index]!).getAllByRole('cell');
      expect(value).toHaveAttribute('data-label', 'Domain');
      expect(value).toHaveAccessibleName(domain);
      expect(actions).toHaveAttribute('data-actions');
      expect(within(actions!).getByRole('button', { name: `Delete ${domain}` })).toBeEnabled();
    }
    screen.getByRole('button', { name: 'Delete bravo.com' }).click();
    expect(onDelete).toHaveBeenCalledWith('bravo.com');
  });

  it('turns to cards where the columns do not fit, and back when they fit again', () => {
    screenWidth(1024);
    layout(1007, 958);
    const { rerender } = render(<Zones domains={['alpha.com']} />);
    expect(frameOf()).toHaveAttribute('data-layout', 'cards');

    // Measured as a table again on the next render: narrower rows fit.
    layout(940, 958);
    rerender(<Zones domains={['a.com']} />);
    expect(frameOf()).toHaveAttribute('data-layout', 'table');
  });
});

describe('TableRows', () => {
  function Listed({ domains, loading }: { domains: string[] | undefined; loading?: boolean }) {
    return (
      <Table caption="Zones">
        <TableHead>
          <TableHeaderCell>Domain</TableHeaderCell>
        </TableHead>
        <TableBody>
          <TableRows
            colSpan={1}
            loading={loading}
            loadingText="Loading zones..."
            rows={domains}
            empty="No zones found."
          >
            {(domain, index) => (
              <TableRow key={domain}>
                <TableCell label="Domain">{`${index + 1}. ${domain}`}</TableCell>
              </TableRow>
            )}
          </TableRows>
        </TableBody>
      </Table>
    );
  }

  it('says the rows are loading, that there are none, or shows each in order', () => {
    screenWidth(1024);
    const { rerender } = render(<Listed domains={undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading zones...');
    rerender(<Listed domains={['alpha.com']} loading />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading zones...');
    expect(screen.queryByText('1. alpha.com')).toBeNull();

    rerender(<Listed domains={[]} />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('cell')).toHaveTextContent('No zones found.');

    rerender(<Listed domains={['alpha.com', 'bravo.com']} />);
    expect(screen.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '1. alpha.com',
      '2. bravo.com',
    ]);
  });
});
