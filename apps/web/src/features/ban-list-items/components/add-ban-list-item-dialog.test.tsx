import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { setToken } from '../../../lib/auth-token';
import { fakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/render-app';
import { sessionToken } from '../../../test/token';
import { AddBanListItemDialog } from './add-ban-list-item-dialog';

const LIST_ID = 'f5eafb532aa8469faf23e37001ff9a23';
const ITEMS_PATH = `/api/cloudflare/banlists/${LIST_ID}/items`;

beforeEach(() => setToken(sessionToken({ level: 1 })));

function openDialog(kind: 'ip' | 'hostname') {
  const api = fakeApi({
    // The dialog's quota warning reads the lists and their accounts' capacity.
    'GET /api/cloudflare/banlists': () => jsonResponse(200, []),
    'GET /api/cloudflare/capacity': () => jsonResponse(200, { accounts: [] }),
    [`POST ${ITEMS_PATH}`]: (call) =>
      jsonResponse(201, { id: 1, ...(call.body as object), created_on: '2026-01-01T00:00:00Z' }),
  });
  const onAdded = vi.fn();
  render(
    <AppProviders client={createQueryClient()}>
      <AddBanListItemDialog listId={LIST_ID} kind={kind} onClose={() => {}} onAdded={onAdded} />
    </AppProviders>,
  );
  return { api, onAdded, user: userEvent.setup(), dialog: screen.getByRole('dialog', { name: 'Add Item' }) };
}

it("keeps the spec's 'IP Address / CIDR' for an ip list", () => {
  const { dialog } = openDialog('ip');
  expect(within(dialog).getByLabelText(/IP Address \/ CIDR/)).toBeInTheDocument();
});

it('speaks of hostnames in a hostname list, and refuses an IP address there before sending', async () => {
  const { api, user, dialog, onAdded } = openDialog('hostname');
  expect(within(dialog).queryByText(/IP Address/)).not.toBeInTheDocument();
  const value = within(dialog).getByLabelText(/^Hostname/);
  await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
  expect(within(dialog).getByText('Hostname is required.')).toBeInTheDocument();

  await user.type(value, '1.2.3.4');
  await user.type(within(dialog).getByLabelText(/Comment/), 'Scanner');
  await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
  const message =
    'A hostname list takes host names such as host.example.com, not IP addresses: add addresses to an IP list.';
  expect(within(dialog).getByText(message)).toBeInTheDocument();
  expect(value).toHaveAccessibleDescription(expect.stringContaining(message));
  expect(api.callsTo(`POST ${ITEMS_PATH}`)).toHaveLength(0);

  await user.clear(value);
  await user.type(value, 'scanner.example.com');
  await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
  await waitFor(() => expect(onAdded).toHaveBeenCalled());
  expect(api.callsTo(`POST ${ITEMS_PATH}`)[0]?.body).toEqual({
    ip: 'scanner.example.com',
    comment: 'Scanner',
    expires: 'never',
  });
});

it('sends the expiry chosen: a preset, or a date once one is picked', async () => {
  const { api, user, dialog, onAdded } = openDialog('ip');
  await user.type(within(dialog).getByLabelText(/IP Address \/ CIDR/), '203.0.113.7');
  await user.type(within(dialog).getByLabelText(/Comment/), 'Brute force');
  const expires = within(dialog).getByLabelText('Expires');
  expect(expires).toHaveValue('never');
  expect(
    within(dialog)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['Never', '1 hour', '1 day', '7 days', '30 days', 'On a date...']);

  await user.selectOptions(expires, 'date');
  await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
  expect(await within(dialog).findByText('Choose the date and time it expires.')).toBeInTheDocument();
  expect(api.callsTo(`POST ${ITEMS_PATH}`)).toHaveLength(0);

  const date = within(dialog).getByLabelText(/Expiry date and time/);
  // user-event cannot type into a datetime-local input; the browser sends this change.
  const soon = new Date(Date.now() + 2 * 86_400_000);
  const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  fireEvent.change(date, { target: { value: local } });
  await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
  await waitFor(() => expect(onAdded).toHaveBeenCalled());
  expect(api.callsTo(`POST ${ITEMS_PATH}`)[0]?.body).toMatchObject({
    expires: new Date(local).toISOString(),
  });
});

it('sends a preset as such', async () => {
  const { api, user, dialog, onAdded } = openDialog('ip');
  await user.type(within(dialog).getByLabelText(/IP Address \/ CIDR/), '203.0.113.8');
  await user.type(within(dialog).getByLabelText(/Comment/), 'Scanner');
  await user.selectOptions(within(dialog).getByLabelText('Expires'), '1d');
  await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
  await waitFor(() => expect(onAdded).toHaveBeenCalled());
  expect(api.callsTo(`POST ${ITEMS_PATH}`)[0]?.body).toMatchObject({ expires: '1d' });
});
