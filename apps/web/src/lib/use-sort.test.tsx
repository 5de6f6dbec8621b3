import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Table, TableHead, SortableHeaderCell } from '../components/ui/table';
import { compareValues, nextSort, sortRows, useSort } from './use-sort';

interface Zone {
  id: number;
  domain: string;
  accountName: string | null;
}

const zones: Zone[] = [
  { id: 3, domain: 'zone10.com', accountName: 'b' },
  { id: 1, domain: 'zone2.com', accountName: null },
  { id: 2, domain: 'Alpha.com', accountName: 'a' },
];

describe('nextSort', () => {
  it('flips the direction of the sorted column and starts another column ascending', () => {
    expect(nextSort({ key: 'id', direction: 'asc' }, 'id')).toEqual({ key: 'id', direction: 'desc' });
    expect(nextSort({ key: 'id', direction: 'desc' }, 'id')).toEqual({ key: 'id', direction: 'asc' });
    expect(nextSort({ key: 'id', direction: 'desc' }, 'domain')).toEqual({ key: 'domain', direction: 'asc' });
  });
});

describe('sortRows', () => {
  const valueOf = (zone: Zone, key: keyof Zone) => zone[key];

  it('sorts numbers numerically and text naturally, ignoring case', () => {
    expect(sortRows(zones, { key: 'id', direction: 'desc' }, valueOf).map((zone) => zone.id)).toEqual([
      3, 2, 1,
    ]);
    expect(sortRows(zones, { key: 'domain', direction: 'asc' }, valueOf).map((zone) => zone.domain)).toEqual([
      'Alpha.com',
      'zone2.com',
      'zone10.com',
    ]);
  });

  it('keeps empty values last in both directions', () => {
    expect(sortRows(zones, { key: 'accountName', direction: 'asc' }, valueOf).map((zone) => zone.id)).toEqual(
      [2, 3, 1],
    );
    expect(
      sortRows(zones, { key: 'accountName', direction: 'desc' }, valueOf).map((zone) => zone.id),
    ).toEqual([3, 2, 1]);
  });

  it('does not change the input', () => {
    const copy = [...zones];
    sortRows(zones, { key: 'id', direction: 'asc' }, valueOf);
    expect(zones).toEqual(copy);
  });

  it('compares dates by time', () => {
    expect(compareValues(new Date(1), new Date(2))).toBeLessThan(0);
  });
});

describe('useSort', () => {
  it('sorts by the initial column and toggles on demand', () => {
    const { result } = renderHook(() => useSort(zones, { key: 'id', direction: 'asc' }));
    expect(result.current.sorted.map((zone) => zone.id)).toEqual([1, 2, 3]);
    act(() => result.current.toggleSort('id'));
    expect(result.current.sort).toEqual({ key: 'id', direction: 'desc' });
    expect(result.current.sorted.map((zone) => zone.id)).toEqual([3, 2, 1]);
    act(() => result.current.toggleSort('domain'));
    expect(result.current.sorted.map((zone) => zone.domain)[0]).toBe('Alpha.com');
  });
});

describe('SortableHeaderCell', () => {
  function Header() {
    const { sort, toggleSort } = useSort(zones, { key: 'id', direction: 'asc' });
    return (
      <Table>
        <TableHead>
          <SortableHeaderCell column="id" sort={sort} onSort={toggleSort}>
            No
          </SortableHeaderCell>
          <SortableHeaderCell column="domain" sort={sort} onSort={toggleSort}>
            Domain
          </SortableHeaderCell>
        </TableHead>
      </Table>
    );
  }

  it('says the direction with aria-sort and toggles on click', async () => {
    const user = userEvent.setup();
    render(<Header />);
    const noHeader = screen.getByRole('columnheader', { name: 'No' });
    const domainHeader = screen.getByRole('columnheader', { name: 'Domain' });
    expect(noHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(domainHeader).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(noHeader).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: 'Domain' }));
    expect(domainHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(noHeader).toHaveAttribute('aria-sort', 'none');
  });
});
