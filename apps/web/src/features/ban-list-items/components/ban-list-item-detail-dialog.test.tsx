import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BanListItem, BanListItemHistory } from '@guardian/contract';
import { beforeEach, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { setToken } from '../../../lib/auth-token';
import { fakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/render-app';
import { sessionToken } from '../../../test/token';
import { BanListItemDetailDialog } from './ban-list-item-detail-dialog';

const LIST_ID = 'f5eafb532aa8469faf23e37001ff9a23';
const ITEM_PATH = `/api/cloudflare/banlists/${LIST_ID}/items/7`;

beforeEach(() => setToken(sessionToken({ level: 1 })));

const ITEM: BanListItem = {
  id: 7,
  ip: '203.0.113.7',
  comment: 'Brute force',
  created_on: '2026-01-01T00:00:00Z',
  added_via: 'api',
  added_by: 'ops@example.com (API key "fail2ban")',
  expires_at: '2026-01-02T00:00:00Z',
};

function openDialog(item: BanListItem, history: BanListItemHistory) {
  const api = fakeApi({
    [`GET ${ITEM_PATH}/history`]: () => jsonResponse(200, history),
    [`PUT ${ITEM_PATH}/expiry`]: () => jsonResponse(200, { ...item, expires_at: null }),
  });
  const onChanged = vi.fn();
  render(
    <AppProviders client={createQueryClient()}>
      <BanListItemDetailDialog
        listId={LIST_ID}
        item={item}
        valueLabel="IP Address"
        onClose={() => {}}
        onChanged={onChanged}
      />
    </AppProviders>,
  );
  return {
    api,
    onChanged,
    user: userEvent.setup(),
    dialog: screen.getByRole('dialog', { name: 'Item Details' }),
  };
}

it('shows who added the item, its expiry and its history in words', async () => {
  const { dialog } = openDialog(ITEM, {
    value: ITEM.ip,
    events: [
      {
        at: '2026-01-01T00:00:00Z',
        event: 'added',
        actor: ITEM.added_by,
        added_via: 'api',
        expires_at: '2026-01-01T12:00:00Z',
      },
      {
        at: '2026-01-01T01:00:00Z',
        event: 'expiry_changed',
        actor: 'ops@example.com',
        added_via: null,
        expires_at: null,
      },
      {
        at: '2026-01-02T00:00:00Z',
        event: 'restored',
        actor: 'ops@example.com',
        added_via: null,
        expires_at: null,
      },
      {
        at: '2026-01-03T00:00:00Z',
        event: 'expired',
        actor: 'Guardian (expiry)',
        added_via: null,
        expires_at: null,
      },
    ],
  });
  expect(within(dialog).getByText(ITEM.added_by)).toBeInTheDocument();
  const history = within(dialog).getByRole('region', { name: 'History' });
  const lines = await within(history).findAllByRole('listitem');
  expect(lines.map((line) => line.textContent)).toEqual([
    expect.stringContaining(`Added by ${ITEM.added_by} through the API; expires `),
    expect.stringContaining('ops@example.com changed the expiry: never expires.'),
    expect.stringContaining('Restored by ops@example.com; never expires.'),
    expect.stringContaining('Removed by Guardian (expiry): its expiry had passed.'),
  ]);
});

it('says an item found at Cloudflare was added there', async () => {
  const { dialog } = openDialog(
    { ...ITEM, added_via: 'cloudflare', added_by: '', expires_at: null },
    { value: ITEM.ip, events: [] },
  );
  expect(within(dialog).getAllByText('Added at Cloudflare').length).toBeGreaterThan(0);
  expect(
    await within(dialog).findByText('Added at Cloudflare: Guardian has no history of it yet.'),
  ).toBeInTheDocument();
});

it('changes the expiry', async () => {
  const { api, dialog, user, onChanged } = openDialog(ITEM, { value: ITEM.ip, events: [] });
  const field = within(dialog).getByLabelText('Change expiry');
  // The item's own date is shown as a date.
  expect(field).toHaveValue('date');
  await user.selectOptions(field, 'never');
  await user.click(within(dialog).getByRole('button', { name: 'Save Expiry' }));
  await waitFor(() => expect(onChanged).toHaveBeenCalled());
  expect(api.callsTo(`PUT ${ITEM_PATH}/expiry`)[0]?.body).toEqual({ expires: 'never' });
});
